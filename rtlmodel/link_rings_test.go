package rtlmodel

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A link's rings start at linkRingStart items however much the link could
// hold, and grow when more are in flight: a link 64 wide and 40 cycles
// long starts with room for 32 items and then carries 64 a cycle for 100
// cycles, in order, every item at its latency.
func TestLinkRingsStartSmallAndGrowAsTheyFill(t *testing.T) {
	e := NewEngine(Options{Seed: 1})
	d, err := e.AddDomain("d", 1000, 0)
	require.NoError(t, err)
	const width, latency, cycles = 64, 40, 100
	var l *Link[int]
	sent := 0
	sh, err := e.Add(d, "sender", fn(func(ed Edge) Wake {
		for range width {
			l.Send(sent)
			sent++
		}
		if ed.Cycle+1 == cycles {
			return Never
		}
		return ed.Next()
	}))
	require.NoError(t, err)
	got, late := 0, 0
	rh, err := e.Add(d, "receiver", fn(func(ed Edge) Wake {
		for {
			v, ok := l.Recv()
			if !ok {
				return Never
			}
			require.Equal(t, got, v, "in order")
			if uint64(v/width)+latency != ed.Cycle {
				late++
			}
			got++
		}
	}))
	require.NoError(t, err)
	l, err = NewLink[int]("l", sh, rh, LinkConfig{Latency: latency, Width: width})
	require.NoError(t, err)
	require.Equal(t, linkRingStart, len(l.q.buf), "in flight: room for linkRingStart, not width x (latency+1)")
	require.LessOrEqual(t, len(l.staged.buf), linkRingStart)
	require.NoError(t, e.Run(Forever))
	require.Equal(t, width*cycles, got)
	require.Zero(t, late, "every item arrives at its latency")
	require.GreaterOrEqual(t, len(l.q.buf), width*latency, "the ring grew to what was in flight")
}

// A sender that holds far more credits than it spends never runs short,
// yet the returns of what it sent are taken in as it sends, so its ring
// of returns holds only those still on their way: a 1000-credit link
// carrying an item a cycle for 600 cycles keeps its returns in the ring's
// first few slots, and every credit is back or on its way at the end.
func TestLinkReturnsDoNotPileUpWhileCreditsLast(t *testing.T) {
	e := NewEngine(Options{Seed: 1})
	d, err := e.AddDomain("d", 1000, 0)
	require.NoError(t, err)
	const pool, cycles = 1000, 600
	var l *Link[int]
	most := 0
	sh, err := e.Add(d, "sender", fn(func(ed Edge) Wake {
		require.True(t, l.CanSend())
		l.Send(int(ed.Cycle))
		most = max(most, l.returns.n)
		if ed.Cycle+1 == cycles {
			return Never
		}
		return ed.Next()
	}))
	require.NoError(t, err)
	got := 0
	rh, err := e.Add(d, "receiver", fn(func(Edge) Wake {
		for {
			if _, ok := l.Recv(); !ok {
				return Never
			}
			got++
		}
	}))
	require.NoError(t, err)
	l, err = NewLink[int]("l", sh, rh, LinkConfig{Latency: 2, Width: 1, Credits: pool, CreditLatency: 1})
	require.NoError(t, err)
	require.NoError(t, e.Run(Forever))
	require.Equal(t, cycles, got)
	require.LessOrEqual(t, most, 4, "returns on their way: a latency and a credit latency of them")
	require.LessOrEqual(t, len(l.returns.buf), 8, "the ring did not grow with what was sent")
	back := l.Credits()
	for i := 0; i < l.returns.n; i++ {
		back += l.returns.buf[(l.returns.head+i)&l.returns.mask].n
	}
	require.Equal(t, pool, back, "every credit is back or on its way")
}
