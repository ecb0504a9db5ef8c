package rtlmodel

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// A Watch reports each delivery at the receiver edge where the item becomes
// visible and each credit return a sender waits for (it read its credits
// while some were out) at the sender edge where it can be spent, in (time,
// index) order, and never before: at the reported edge Peek sees the item,
// and Credits shows the returned credit.
func TestWatchReportsDeliveriesAndCreditsWhenVisible(t *testing.T) {
	for _, tick := range []bool{false, true} {
		e, ds := newTestEngine(t, Options{AlwaysTick: tick}, 800, 625)
		var arrivals, credits Watch
		var links [3]*Link[int]
		var log []string
		sender := fn(func(ed Edge) Wake {
			for {
				i, ok := credits.Next(ed.Time)
				if !ok {
					break
				}
				log = append(log, fmt.Sprintf("credit %d at %d: %d held", i, ed.Time, links[i].Credits()))
			}
			if ed.Cycle == 2 {
				for _, l := range links {
					l.Send(int(ed.Cycle))
					l.Credits() // short of its pool: told of the return
				}
			}
			if ed.Cycle < 2 {
				return Wake(2)
			}
			return Never
		})
		receiver := fn(func(ed Edge) Wake {
			for {
				i, ok := arrivals.Next(ed.Time)
				if !ok {
					break
				}
				v, seen := links[i].Recv()
				log = append(log, fmt.Sprintf("arrival %d at %d: %d %v", i, ed.Time, v, seen))
			}
			return Never
		})
		hs, err := e.Add(ds[0], "tx", sender)
		require.NoError(t, err)
		hr, err := e.Add(ds[1], "rx", receiver)
		require.NoError(t, err)
		for i := range links {
			links[i], err = NewLink[int](fmt.Sprintf("l%d", i), hs, hr, LinkConfig{Latency: uint64(3 - i), Width: 1,
				Credits: 8, CreditLatency: uint64(1 + i)})
			require.NoError(t, err)
			links[i].WatchArrivals(&arrivals, i)
			links[i].WatchCredits(&credits, i)
		}
		require.NoError(t, e.Run(20000))
		// Sent at 1600 ps; the receiver's edges are 625 ps apart: latency 1
		// is its edge at 1875, 2 at 2500, 3 at 3125. A credit comes back at
		// the first sender edge after the receiver's, plus its latency - 1
		// sender cycles: l2 at 2400+1600, l1 at 3200+800, l0 at 3200.
		require.Equal(t, []string{
			"arrival 2 at 1875: 2 true",
			"arrival 1 at 2500: 2 true",
			"arrival 0 at 3125: 2 true",
			"credit 0 at 3200: 8 held",
			"credit 1 at 4000: 8 held",
			"credit 2 at 4000: 8 held",
		}, log, "always-tick %v", tick)
	}
}

// DelayArrivals makes items visible whole receiver cycles later, in order,
// in both evaluation modes.
func TestDelayArrivalsShiftsVisibility(t *testing.T) {
	for _, tick := range []bool{false, true} {
		e, ds := newTestEngine(t, Options{AlwaysTick: tick}, 800, 625)
		var l *Link[int]
		var seen []string
		sender := fn(func(ed Edge) Wake {
			if ed.Cycle == 2 || ed.Cycle == 3 {
				l.Send(int(ed.Cycle))
			}
			if ed.Cycle < 3 {
				return ed.Next()
			}
			return Never
		})
		receiver := fn(func(ed Edge) Wake {
			for {
				v, ok := l.Recv()
				if !ok {
					break
				}
				seen = append(seen, fmt.Sprintf("%d at %d", v, ed.Time))
			}
			return Never
		})
		hs, err := e.Add(ds[0], "tx", sender)
		require.NoError(t, err)
		hr, err := e.Add(ds[1], "rx", receiver)
		require.NoError(t, err)
		l, err = NewLink[int]("l", hs, hr, LinkConfig{Latency: 1, Width: 1})
		require.NoError(t, err)
		l.DelayArrivals(4)
		require.NoError(t, e.Run(20000))
		// sent at 1600 and 2400 ps: delivered at the receiver edges 1875 and
		// 2500 without the delay, 4 x 625 ps later with it
		require.Equal(t, []string{"2 at 4375", "3 at 5000"}, seen, "always-tick %v", tick)
	}
}

// Events added in any order come out in (time, index) order, as from a
// heap, interleaving adds and takes as components do.
func TestWatchOrdersEventsLikeAHeap(t *testing.T) {
	r := NewRNG(3, "watch")
	var w Watch
	var ref wakeHeap
	now := Time(0)
	for step := 0; step < 100000; step++ {
		if r.Intn(3) > 0 {
			at := now + Time(1+r.Intn(40))
			idx := r.Intn(16)
			w.add(at, idx)
			ref.push(wakeEntry{t: at, key: uint64(idx)})
			continue
		}
		now += Time(r.Intn(20))
		for {
			i, ok := w.Next(now)
			if ref.len() == 0 || ref.top().t > now {
				require.False(t, ok, "step %d: event %d before its time", step, i)
				break
			}
			want := ref.pop()
			require.True(t, ok, "step %d: event missing", step)
			require.Equal(t, int(want.key), i, "step %d", step)
		}
	}
}

// BenchmarkWatchOutOfOrder adds and takes events as a traffic manager's
// arrival watch sees them: 64 ports 250 ns away, a frame every 378 ns on
// each, told link by link for each 246 ns window and taken edge by edge.
// About 63 events are in flight, 91 % of them come before some already
// held, and those pass 12 on average. (The 1024-endpoint permutation's
// rx watches hold 84, and pass 41: their links' latencies differ.) An op
// is one event added and taken.
func BenchmarkWatchOutOfOrder(b *testing.B) {
	benchWatchWindows(b, (*Watch).add, func() {})
}

// benchWatchWindows runs BenchmarkWatchOutOfOrder's windows, telling each
// event with tell and ending each window's telling with told.
func benchWatchWindows(b *testing.B, tell func(w *Watch, at Time, idx int), told func()) {
	const (
		ports   = 64
		frame   = 378000 // ps between a port's frames
		latency = 250000 // ps from a window's start to its arrivals
		window  = 246400 // ps, the lookahead
		edge    = 1000   // ps, the receiver's clock period
	)
	r := NewRNG(9, "watch-bench")
	next := make([]Time, ports)
	for p := range next {
		next[p] = Time(r.Intn(frame/edge) * edge)
	}
	var w Watch
	b.ReportAllocs()
	b.ResetTimer()
	now, added := Time(0), 0
	for added < b.N {
		end := now + window
		for p := range next {
			for ; next[p] < end; next[p] += frame {
				tell(&w, next[p]+latency, p)
				added++
			}
		}
		told()
		for ; now < end; now += edge {
			for {
				if _, ok := w.Next(now); !ok {
					break
				}
			}
		}
	}
}

// A watch's events are words holding their time after a base; the base
// moves when an event falls outside the span a word holds, later or
// earlier than what the watch holds, and the events come out in (time,
// index) order throughout. Events spread wider than the span are refused.
func TestWatchRebasesAcrossItsSpan(t *testing.T) {
	var w Watch
	type ev struct {
		at  Time
		idx int
	}
	add := w.add
	// in flight at once: events a few microseconds apart, told out of
	// order, around times that pass the span several times over
	for k := Time(0); k < 6; k++ {
		t0 := k*(watchSpan/2) + 12345
		add(t0+3000, 2)
		add(t0+1000, 7)
		add(t0+3000, 1)
		add(t0+2000, 0)
		base := w.base
		require.LessOrEqual(t, base, t0+1000)
		var got []ev
		for now := t0; now <= t0+3000; now += 1000 {
			for {
				i, ok := w.Next(now)
				if !ok {
					break
				}
				got = append(got, ev{now, i})
			}
		}
		require.Equal(t, []ev{{t0 + 1000, 7}, {t0 + 2000, 0}, {t0 + 3000, 1}, {t0 + 3000, 2}}, got, "round %d", k)
	}
	// an event earlier than the base after a rebase to a far later time
	var v Watch
	v.add(watchSpan+watchSlack*3, 4) // rebases to watchSpan + watchSlack*2
	v.add(watchSpan+watchSlack, 5)   // before the base: rebased down
	i, ok := v.Next(watchSpan + watchSlack)
	require.True(t, ok)
	require.Equal(t, 5, i)
	_, ok = v.Next(watchSpan + watchSlack*3 - 1)
	require.False(t, ok)
	i, ok = v.Next(watchSpan + watchSlack*3)
	require.True(t, ok)
	require.Equal(t, 4, i)
	// events a whole span apart do not fit one watch
	var u Watch
	u.add(1000, 0)
	require.Panics(t, func() { u.add(1000+watchSpan, 1) })
}
