package rtlmodel

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Credit returns wake a sender only when it has found too few credits: a
// sender that sends one item every tenth cycle on a link whose credits
// come back in a few cycles is evaluated at its own edges alone, while one
// that sends until the pool is empty, to a receiver slower than it, is
// woken by the first return after it found the shortage, sends again
// there, and so on; a credit watch is told of the same returns. HasCredits
// asks what CanSend does without the width, and arms the wake the same way.
func TestCreditReturnsWakeOnlyASenderShortOfThem(t *testing.T) {
	run := func(burst, hasCredits, watched bool) (edges []uint64, sent int) {
		e := NewEngine(Options{})
		var credits Watch
		d, err := e.AddDomain("core", 1000, 0)
		require.NoError(t, err)
		var l *Link[int]
		tx, err := e.Add(d, "tx", fn(func(ed Edge) Wake {
			edges = append(edges, ed.Cycle)
			for {
				if _, ok := credits.Next(ed.Time); !ok {
					break
				}
			}
			if sent == 40 {
				return Never
			}
			if !burst {
				if ed.Cycle%10 == 0 && l.CanSend() {
					l.Send(sent)
					sent++
				}
				return Wake((ed.Cycle/10 + 1) * 10)
			}
			if !l.CanSend() {
				return Never
			}
			l.Send(sent)
			sent++
			if hasCredits && !l.HasCredits(1) {
				return Never // woken by the next return
			}
			return ed.Next()
		}))
		require.NoError(t, err)
		rx, err := e.Add(d, "rx", fn(func(ed Edge) Wake {
			// one item every third cycle: the sender outruns it
			if ed.Cycle%3 != 0 {
				return Wake((ed.Cycle/3 + 1) * 3)
			}
			if _, ok := l.Recv(); !ok {
				return Never
			}
			return Wake(ed.Cycle + 3)
		}))
		require.NoError(t, err)
		l, err = NewLink[int]("l", tx, rx, LinkConfig{Latency: 1, Width: 1, Credits: 5, CreditLatency: 3})
		require.NoError(t, err)
		if watched {
			l.WatchCredits(&credits, 0)
		}
		require.NoError(t, e.Run(Forever))
		return edges, sent
	}
	for _, watched := range []bool{false, true} {
		paced, n := run(false, false, watched)
		require.Equal(t, 40, n)
		for _, c := range paced {
			require.Zero(t, c%10, "watched %v: the paced sender was evaluated at cycle %d, not one of its own edges", watched, c)
		}
	}
	for _, v := range []struct{ has, watched bool }{{false, false}, {true, false}, {false, true}, {true, true}} {
		has := v.has
		edges, n := run(true, has, v.watched)
		require.Equal(t, 40, n, "watched %v, HasCredits %v", v.watched, has)
		// the pool of 5 empties in the first five cycles; from then on
		// the receiver frees one credit every third cycle, back three
		// cycles later, and the sender is woken once per return, at a
		// multiple of three, and sends there; asking for the next edge
		// after each send, it finds no credit there (CanSend) unless it
		// looked with HasCredits
		first := []uint64{0, 1, 2, 3, 4, 5} // CanSend finds the pool empty at 5
		if has {
			first = first[:5] // HasCredits found it empty at 4
		}
		require.Equal(t, first, edges[:len(first)], "watched %v, HasCredits %v", v.watched, has)
		returns := 0
		for i, c := range edges[len(first):] {
			switch {
			case c%3 == 0:
				returns++
			case !has && c%3 == 1 && edges[len(first)-1+i] == c-1:
			default:
				t.Fatalf("watched %v, HasCredits %v: sender evaluated at cycle %d, neither at a credit return nor the edge after one it sent at", v.watched, has, c)
			}
		}
		// 35 items sent at returns; with HasCredits, the last send found
		// the pool empty too and asked for one more
		want := 35
		if has {
			want = 36
			require.Len(t, edges, 5+want, "watched %v: no evaluation but at the returns", v.watched)
		}
		require.Equal(t, want, returns, "watched %v, HasCredits %v: one evaluation per return after the pool ran dry", v.watched, has)
	}
}
