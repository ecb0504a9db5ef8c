package rtlmodel

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// A link delivers at Send when nobody traces transfers and at the commit
// when someone does: a sender and a receiver in two clocks, both drawing
// random gaps, on a credited link, see the same items at the same cycles
// and the same credits either way, idle-skipping or always-ticked.
func TestLinkDeliversTheSameTracedOrNot(t *testing.T) {
	run := func(traced, tick bool) []string {
		e := NewEngine(Options{Seed: 9, AlwaysTick: tick})
		tx, err := e.AddDomain("tx", 800, 0)
		require.NoError(t, err)
		rx, err := e.AddDomain("rx", 1000, 300)
		require.NoError(t, err)
		var l *Link[int]
		var sh, rh *Handle
		var log []string
		next, sent, waiting := uint64(0), 0, false
		sh, err = e.Add(tx, "sender", fn(func(ed Edge) Wake {
			switch {
			case sent == 200:
				return Never
			case ed.Cycle < next:
				return Wake(next)
			case !l.CanSend():
				if !waiting {
					log = append(log, fmt.Sprintf("tx %d waits", ed.Cycle))
				}
				waiting = true
				return Never // a credit return wakes it
			}
			waiting = false
			l.Send(sent)
			sent++
			next = ed.Cycle + 1 + uint64(sh.RNG().Intn(3))
			return Wake(next)
		}))
		require.NoError(t, err)
		hold := uint64(0)
		rh, err = e.Add(rx, "receiver", fn(func(ed Edge) Wake {
			if ed.Cycle < hold {
				return Wake(hold)
			}
			v, ok := l.Recv()
			if !ok {
				return Never
			}
			log = append(log, fmt.Sprintf("rx %d got %d", ed.Cycle, v))
			hold = ed.Cycle + uint64(rh.RNG().Intn(5))
			return ed.Next()
		}))
		require.NoError(t, err)
		l, err = NewLink[int]("l", sh, rh, LinkConfig{Latency: 3, Width: 1, Credits: 6, CreditLatency: 2})
		require.NoError(t, err)
		if traced {
			e.Hooks().OnTransfer(func(*TransferEvent) {})
		}
		require.NoError(t, e.Run(Forever))
		return log
	}
	want := run(true, false)
	require.Len(t, want, 200+countWaits(want))
	require.Greater(t, countWaits(want), 0, "the receiver should hold the sender back at times")
	for _, c := range []struct{ traced, tick bool }{{false, false}, {false, true}, {true, true}} {
		require.Equal(t, want, run(c.traced, c.tick), "traced %v, always-tick %v", c.traced, c.tick)
	}
}

// countWaits counts the sender's waits in a log (filter: link_take_test.go).
func countWaits(log []string) int { return len(filter(log, "tx")) }
