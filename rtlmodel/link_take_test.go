package rtlmodel

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// A receiver that takes on send is the component that waits for each item:
// a server that needs a random number of cycles per item, at most one item
// per edge, gives the sender the same credits at the same cycles (so the
// same sends and waits) and takes every item at the same edge, whether it
// is an Eval per item or a TakeOnSend function.
func TestTakeOnSendIsTheReceiverThatWaits(t *testing.T) {
	run := func(onSend, tick, traced bool) []string {
		e := NewEngine(Options{Seed: 4, AlwaysTick: tick})
		d, err := e.AddDomain("core", 1000, 0)
		require.NoError(t, err)
		var l *Link[int]
		var sh, rh *Handle
		var log []string
		sent, waiting, next := 0, false, uint64(0)
		sh, err = e.Add(d, "sender", fn(func(ed Edge) Wake {
			if sent == 300 {
				return Never
			}
			if ed.Cycle < next {
				return Wake(next)
			}
			if !l.CanSend() {
				if !waiting {
					log = append(log, fmt.Sprintf("tx %d waits", ed.Cycle))
				}
				waiting = true
				return Never
			}
			waiting = false
			l.Send(sent)
			sent++
			next = ed.Cycle + uint64(1+sh.RNG().Intn(2))
			return Wake(next)
		}))
		require.NoError(t, err)
		var busyUntil, lastTake Time
		took := false
		// serve decides when the server takes an item visible at visible.
		serve := func(v int, visible Time) Time {
			at := max(visible, busyUntil)
			if took && at < lastTake+1000 {
				at = lastTake + 1000
			}
			lastTake, took = at, true
			busyUntil = at + Time(1+rh.RNG().Intn(4))*1000
			log = append(log, fmt.Sprintf("took %d at %v", v, at))
			return at
		}
		rh, err = e.Add(d, "server", fn(func(ed Edge) Wake {
			if onSend {
				return Never
			}
			if ed.Time < busyUntil {
				return Wake(d.CycleAt(busyUntil))
			}
			v, ok := l.Recv()
			if !ok {
				return Never
			}
			serve(v, ed.Time)
			return ed.Next()
		}))
		require.NoError(t, err)
		l, err = NewLink[int]("l", sh, rh, LinkConfig{Latency: 2, Width: 1, Credits: 4, CreditLatency: 1})
		require.NoError(t, err)
		if onSend {
			l.TakeOnSend(TakerFunc[int](serve))
		}
		if traced {
			e.Hooks().OnTransfer(func(*TransferEvent) {})
		}
		require.NoError(t, e.Run(Forever))
		return log
	}
	want := run(false, false, false)
	require.Equal(t, 300, countTakes(want))
	require.Greater(t, len(want)-300, 10, "the server should hold the sender back at times")
	require.Equal(t, want, run(false, true, false), "an always-ticked server")
	for _, c := range []struct{ tick, traced bool }{{false, false}, {true, false}, {false, true}} {
		got := run(true, c.tick, c.traced)
		// the log interleaves differently (takes are logged at the send),
		// so compare the takes and the waits each in order
		require.Equal(t, filter(want, "took"), filter(got, "took"), "always-tick %v, traced %v", c.tick, c.traced)
		require.Equal(t, filter(want, "tx"), filter(got, "tx"), "always-tick %v, traced %v", c.tick, c.traced)
	}
}

func countTakes(log []string) int { return len(filter(log, "took")) }

func filter(log []string, prefix string) []string {
	var out []string
	for _, s := range log {
		if len(s) >= len(prefix) && s[:len(prefix)] == prefix {
			out = append(out, s)
		}
	}
	return out
}
