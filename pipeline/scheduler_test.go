package pipeline

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// backlog is a set of queues of packet sizes driving a Scheduler.
type backlog struct {
	q    [][]uint32
	sent []uint64 // bytes sent per queue
	pkts []uint64 // packets sent per queue
}

func newBacklog(s Scheduler, q [][]uint32) *backlog {
	b := &backlog{q: q, sent: make([]uint64, len(q)), pkts: make([]uint64, len(q))}
	for i, p := range q {
		if len(p) > 0 {
			s.SetHead(i, p[0])
		}
	}
	return b
}

// step asks for one decision and serves it; it returns the queue or -1.
func (b *backlog) step(s Scheduler) int {
	q := s.Pick()
	if q < 0 {
		return q
	}
	sz := b.q[q][0]
	b.q[q] = b.q[q][1:]
	var next uint32
	if len(b.q[q]) > 0 {
		next = b.q[q][0]
	}
	s.Served(q, sz, next)
	b.sent[q] += uint64(sz)
	b.pkts[q]++
	return q
}

// sizes returns n packet sizes from lo to hi bytes.
func sizes(rng *rtlmodel.RNG, n int, lo, hi int) []uint32 {
	out := make([]uint32, n)
	for i := range out {
		out[i] = uint32(lo + rng.Intn(hi-lo+1))
	}
	return out
}

func mustDWRR(t testing.TB, quanta ...uint32) *DWRR {
	d, err := NewDWRR(quanta)
	require.NoError(t, err)
	return d
}

func TestStrictPriorityStarvesLowerClasses(t *testing.T) {
	s := NewStrictPriority(4)
	b := newBacklog(s, [][]uint32{{64, 64, 64}, {1500, 1500}, {100}, {9000}})
	var order []int
	for q := b.step(s); q >= 0; q = b.step(s) {
		order = append(order, q)
	}
	require.Equal(t, []int{0, 0, 0, 1, 1, 2, 3}, order)

	// Queue 0 always backlogged: queue 1 never sends; pausing 0 lets 1 go.
	s.Reset()
	s.SetHead(0, 64)
	s.SetHead(1, 64)
	for range 1000 {
		q := s.Pick()
		require.Equal(t, 0, q)
		s.Served(q, 64, 64)
	}
	s.SetPaused(0, true)
	require.Equal(t, 1, s.Pick())
	s.SetPaused(0, false)
	require.Equal(t, 0, s.Pick())
}

func TestDWRRKnownSequence(t *testing.T) {
	d := mustDWRR(t, 500, 500)
	p := []uint32{300, 300, 300, 300, 300, 300}
	b := newBacklog(d, [][]uint32{append([]uint32(nil), p...), append([]uint32(nil), p...)})
	var order []int
	for q := b.step(d); q >= 0; q = b.step(d) {
		order = append(order, q)
	}
	require.Equal(t, []int{0, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 1}, order)
}

// refDRR is the algorithm as the paper writes it: visit the round in order,
// add the quantum, send while the head fits, then requeue or, when empty,
// leave with a zero deficit.
func refDRR(quanta []uint32, q [][]uint32) []int {
	var order []int
	deficit := make([]uint64, len(q))
	var round []int
	for i := range q {
		if len(q[i]) > 0 {
			round = append(round, i)
		}
	}
	for len(round) > 0 {
		i := round[0]
		round = round[1:]
		deficit[i] += uint64(quanta[i])
		for len(q[i]) > 0 && uint64(q[i][0]) <= deficit[i] {
			deficit[i] -= uint64(q[i][0])
			q[i] = q[i][1:]
			order = append(order, i)
		}
		if len(q[i]) == 0 {
			deficit[i] = 0
		} else {
			round = append(round, i)
		}
	}
	return order
}

func TestDWRRMatchesReference(t *testing.T) {
	tests := []struct {
		name   string
		quanta []uint32
		lo, hi int
	}{
		{"quanta above MTU", []uint32{9000, 18000, 27000}, 64, 9000},
		{"quanta below packets", []uint32{100, 300, 50, 1000}, 64, 9216},
		{"equal", []uint32{1500, 1500, 1500, 1500, 1500}, 64, 1500},
		{"one queue", []uint32{7}, 1000, 9000},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rng := rtlmodel.NewRNG(1, tc.name)
			q := make([][]uint32, len(tc.quanta))
			for i := range q {
				q[i] = sizes(rng, 200+rng.Intn(2000), tc.lo, tc.hi)
			}
			ref := make([][]uint32, len(q))
			for i := range q {
				ref[i] = append([]uint32(nil), q[i]...)
			}
			want := refDRR(tc.quanta, ref)
			d := mustDWRR(t, tc.quanta...)
			b := newBacklog(d, q)
			var got []int
			for x := b.step(d); x >= 0; x = b.step(d) {
				got = append(got, x)
			}
			require.Equal(t, want, got)
			require.Zero(t, d.Active())
			for i := range tc.quanta {
				require.Zero(t, d.Deficit(i), "empty queue %d keeps no deficit", i)
			}
		})
	}
}

// TestDWRRLongRunShares: with every queue backlogged and packet sizes mixed
// from 64 to 9216 bytes, each queue's bytes stay within one quantum plus one
// largest packet of its exact share, at every point of a million decisions.
func TestDWRRLongRunShares(t *testing.T) {
	quanta := []uint32{1500, 3000, 4500, 9000, 600}
	var sum uint64
	for _, q := range quanta {
		sum += uint64(q)
	}
	d := mustDWRR(t, quanta...)
	rng := rtlmodel.NewRNG(2, "shares")
	const maxPkt = 9216
	head := make([]uint32, len(quanta))
	for i := range head {
		head[i] = uint32(64 + rng.Intn(maxPkt-63))
		d.SetHead(i, head[i])
	}
	sent := make([]uint64, len(quanta))
	var total uint64
	worst := 0.0
	for step := range 1_000_000 {
		q := d.Pick()
		sz := head[q]
		head[q] = uint32(64 + rng.Intn(maxPkt-63))
		d.Served(q, sz, head[q])
		sent[q] += uint64(sz)
		total += uint64(sz)
		if step%1000 != 999 {
			continue
		}
		for i, qi := range quanta {
			share := float64(total) * float64(qi) / float64(sum)
			dev := float64(sent[i]) - share
			if dev < 0 {
				dev = -dev
			}
			// one round of every queue may be in flight: the share of a
			// round of quanta plus the largest packet of each queue
			bound := float64(qi) + maxPkt + float64(qi)/float64(sum)*float64(sum+uint64(len(quanta))*maxPkt)
			worst = max(worst, dev/bound)
			require.LessOrEqual(t, dev, bound, "queue %d after %d packets", i, step+1)
		}
	}
	for i, qi := range quanta {
		got := float64(sent[i]) / float64(total)
		want := float64(qi) / float64(sum)
		require.InDelta(t, want, got, 1e-4, "queue %d long-run share", i)
	}
	t.Logf("worst deviation %.2f of the bound over %d bytes", worst, total)
}

func TestDWRRPauseAndEmptyResetDeficit(t *testing.T) {
	d := mustDWRR(t, 1000, 1000)
	d.SetHead(0, 600)
	d.SetHead(1, 600)
	require.Equal(t, 0, d.Pick())
	d.Served(0, 600, 600) // deficit 400, head 600: next visit
	require.EqualValues(t, 400, d.Deficit(0))
	d.SetPaused(0, true)
	require.Zero(t, d.Deficit(0), "a paused queue leaves the round and banks nothing")
	require.Equal(t, 1, d.Pick())
	d.SetPaused(0, false)
	require.Equal(t, 1, d.Pick(), "a resumed queue joins at the back")
	d.Served(1, 600, 0)
	require.Zero(t, d.Deficit(1), "an emptied queue keeps no deficit")
	require.Equal(t, 0, d.Pick())
	require.EqualValues(t, 1000, d.Deficit(0))
	d.Served(0, 600, 0)
	require.Equal(t, -1, d.Pick())
	require.Zero(t, d.Active())
}

func mustSPDWRR(t testing.TB, c ...QueueClass) *SPDWRR {
	s, err := NewSPDWRR(c)
	require.NoError(t, err)
	return s
}

func TestSPDWRR(t *testing.T) {
	classes := []QueueClass{
		{Level: 2, Quantum: 1000}, {Level: 2, Quantum: 3000}, // DWRR group
		{Level: 0}, // strict, highest
		{Level: 1}, // strict
		{Level: 2, Quantum: 2000},
	}
	s := mustSPDWRR(t, classes...)
	require.Equal(t, 3, s.Levels())
	rng := rtlmodel.NewRNG(4, "spdwrr")
	q := make([][]uint32, len(classes))
	for i := range q {
		q[i] = sizes(rng, 3000, 64, 1500)
	}
	q[2], q[3] = q[2][:500], q[3][:700]
	b := newBacklog(s, q)
	n := 0
	for x := b.step(s); x >= 0; x = b.step(s) {
		switch {
		case n < 500:
			require.Equal(t, 2, x, "level 0 first, decision %d", n)
		case n < 1200:
			require.Equal(t, 3, x, "then level 1, decision %d", n)
		default:
			require.Contains(t, []int{0, 1, 4}, x)
		}
		n++
		if n == 1200+3000 {
			// all of level 2 busy: shares 1:3:2 within a round
			var sum float64
			for _, i := range []int{0, 1, 4} {
				sum += float64(b.sent[i])
			}
			require.InDelta(t, 1.0/6, float64(b.sent[0])/sum, 0.01)
			require.InDelta(t, 3.0/6, float64(b.sent[1])/sum, 0.01)
			require.InDelta(t, 2.0/6, float64(b.sent[4])/sum, 0.01)
		}
	}
	require.Equal(t, 500+700+3*3000, n)

	// A strict class that is paused lets the levels below it send.
	s.Reset()
	s.SetHead(2, 64)
	s.SetHead(0, 64)
	require.Equal(t, 2, s.Pick())
	s.SetPaused(2, true)
	require.Equal(t, 0, s.Pick())
	s.SetPaused(2, false)
	require.Equal(t, 2, s.Pick())

	_, err := NewSPDWRR([]QueueClass{{Level: 1, Quantum: 0}, {Level: 1, Quantum: 5}})
	require.ErrorContains(t, err, "quantum of 0")
	_, err = NewDWRR([]uint32{3, 0})
	require.Error(t, err)
}

// TestSchedulerPickIsIdempotent: asking again without serving changes
// nothing, for every scheduler.
func TestSchedulerPickIsIdempotent(t *testing.T) {
	for _, s := range []Scheduler{NewStrictPriority(6), mustDWRR(t, 100, 900, 64, 3000, 10, 1500),
		mustSPDWRR(t, QueueClass{0, 0}, QueueClass{1, 500}, QueueClass{1, 100}, QueueClass{2, 1}, QueueClass{1, 9000}, QueueClass{3, 7})} {
		rng := rtlmodel.NewRNG(8, "idem")
		head := make([]uint32, 6)
		for range 20000 {
			i := rng.Intn(6)
			switch rng.Intn(4) {
			case 0:
				head[i] = uint32(rng.Intn(3) * (64 + rng.Intn(4000)))
				s.SetHead(i, head[i])
			case 1:
				s.SetPaused(i, rng.Intn(3) == 0)
			default:
				q := s.Pick()
				require.Equal(t, q, s.Pick())
				if q >= 0 {
					require.NotZero(t, head[q])
					sz := head[q]
					head[q] = uint32(rng.Intn(2) * (64 + rng.Intn(4000)))
					s.Served(q, sz, head[q])
				}
			}
		}
	}
}
