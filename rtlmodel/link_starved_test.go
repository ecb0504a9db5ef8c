package rtlmodel

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A link's credit_starved counter counts the sender cycles that began
// with too few credits for the item waiting: on a byte-credited link,
// those with credits left but fewer than the item costs as well as those
// with none. A sender that tries at every cycle counts the same cycles
// itself, as the ones it found it could not send.
func TestCreditStarvedCountsCyclesShortOfTheItemWaiting(t *testing.T) {
	for _, sizes := range [][]int{{4000}, {1000, 4000, 2500, 64, 9000}} {
		e := NewEngine(Options{Seed: 11})
		d, err := e.AddDomain("core", 1000, 0)
		require.NoError(t, err)
		var l *Link[int]
		sent, failed := 0, uint64(0)
		const items = 400
		tx, err := e.Add(d, "tx", fn(func(ed Edge) Wake {
			if sent == items {
				return Never
			}
			if !l.CanSendBytes(sizes[sent%len(sizes)]) {
				failed++
				return ed.Next()
			}
			l.Send(sizes[sent%len(sizes)])
			sent++
			return ed.Next()
		}))
		require.NoError(t, err)
		var rh *Handle
		busy := Time(0)
		rh, err = e.Add(d, "rx", fn(func(ed Edge) Wake {
			if ed.Time < busy {
				return Wake(d.CycleAt(busy))
			}
			if _, ok := l.Recv(); ok {
				busy = ed.Time + Time(1+rh.RNG().Intn(6))*1000
				return Wake(d.CycleAt(busy))
			}
			return Never
		}))
		require.NoError(t, err)
		cfg := LinkConfig{Latency: 2, Width: 1, CreditLatency: 3, WidthBytes: 1, MaxItemBytes: 9000, Credits: 10000}
		l, err = NewByteLink[int]("l", tx, rh, cfg, func(v int) int { return v })
		require.NoError(t, err)
		require.NoError(t, e.Run(Forever))
		require.Equal(t, items, sent)
		require.Greater(t, failed, uint64(100), "the receiver should hold the sender back")
		require.Equal(t, failed, l.starved.Value(), "sizes %v", sizes)
	}
}
