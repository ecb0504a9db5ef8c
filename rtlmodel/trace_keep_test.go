package rtlmodel

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// A link of kept items (KeepTransfers) tells the hooks of those alone and
// delivers the others when they are sent: a sender putting two items a
// cycle on a credited link, an even and an odd in either order, and a
// receiver taking them at random cycles see what they see untraced and
// traced in full. An item passed over is not staged unless one sent
// before it in its edge is, which it must not overtake.
func TestKeepTransfersReportsOnlyTheKeptItems(t *testing.T) {
	type outcome struct {
		log      []string
		reported []int
		// per send: whether the item went by the hooks and whether it was
		// staged as it should be (kept, or behind a staged item)
		passed, behind, wrong int
	}
	// run sends 300 items; the filters, when given, go to KeepTransfers
	// one after the other, and kept is what they keep together
	run := func(hooks bool, kept func(int) bool, filters ...func(int) bool) outcome {
		keep := kept != nil
		var o outcome
		e := NewEngine(Options{Seed: 5})
		tx, err := e.AddDomain("tx", 800, 0)
		require.NoError(t, err)
		rx, err := e.AddDomain("rx", 1000, 300)
		require.NoError(t, err)
		var l *Link[int]
		var rh *Handle
		sent := 0
		sh, err := e.Add(tx, "sender", fn(func(ed Edge) Wake {
			for k := 0; k < 2 && sent < 300 && l.CanSend(); k++ {
				// pairs (odd, even) and (even, odd) in turn
				v := sent
				if sent/2%2 == 0 {
					v = sent ^ 1
				}
				before := l.staged.n
				l.Send(v)
				stage := hooks && (!keep || kept(v) || before > 0)
				switch {
				case stage != (l.staged.n == before+1) || !stage && l.staged.n != before:
					o.wrong++
				case keep && !kept(v) && before > 0:
					o.behind++
				case keep && !kept(v):
					o.passed++
				}
				sent++
			}
			if sent == 300 {
				return Never
			}
			return ed.Next() // a credit shortage: the next edge tries again
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
			o.log = append(o.log, fmt.Sprintf("rx %d got %d", ed.Cycle, v))
			hold = ed.Cycle + uint64(rh.RNG().Intn(3))
			return ed.Next()
		}))
		require.NoError(t, err)
		l, err = NewLink[int]("l", sh, rh, LinkConfig{Latency: 3, Width: 2, Credits: 12, CreditLatency: 2})
		require.NoError(t, err)
		if hooks {
			e.Hooks().OnTransfer(func(ev *TransferEvent) {
				v, ok := TransferValue[int](ev)
				require.True(t, ok)
				o.reported = append(o.reported, v)
			})
		}
		for _, f := range filters {
			require.Equal(t, 1, KeepTransfers(e, f))
		}
		require.NoError(t, e.Run(Forever))
		return o
	}
	even := func(v int) bool { return v%2 == 0 }
	third := func(v int) bool { return v%3 == 0 }
	plain, full, kept := run(false, nil), run(true, nil), run(true, even, even)
	// two listeners' filters: the hooks hear of what either keeps
	either := run(true, func(v int) bool { return even(v) || third(v) }, even, third)
	require.Len(t, plain.log, 300)
	require.Equal(t, plain.log, full.log, "traced in full")
	require.Equal(t, plain.log, kept.log, "traced with the odd items passed over")
	require.Len(t, full.reported, 300)
	require.Len(t, kept.reported, 150)
	for _, v := range kept.reported {
		require.Zero(t, v%2, "an odd item was reported")
	}
	require.Equal(t, plain.log, either.log)
	require.Len(t, either.reported, 200, "the even items and the odd multiples of 3")
	for _, v := range either.reported {
		require.True(t, even(v) || third(v), "item %d reported", v)
	}
	for _, o := range []outcome{plain, full, kept, either} {
		require.Zero(t, o.wrong, "items staged otherwise than kept or behind a staged one")
	}
	t.Logf("odd items passed over: %d, staged behind an even one: %d", kept.passed, kept.behind)
	require.Positive(t, kept.passed)
	require.Positive(t, kept.behind)
}

// KeepTransfers also limits what components report of their hosted
// stages (NoteTransfer) to the kept items of its type; items of other
// types are reported as before.
func TestKeepTransfersLimitsNotedTransfers(t *testing.T) {
	e := NewEngine(Options{})
	d, err := e.AddDomain("d", 1000, 0)
	require.NoError(t, err)
	var seen []any
	e.Hooks().OnTransfer(func(ev *TransferEvent) { seen = append(seen, ev.Value()) })
	KeepTransfers(e, func(v int) bool { return v%2 == 0 })
	for _, item := range []any{3, 4, "stage", 5, 6} {
		e.NoteTransfer("pipe>tm", "pipe", "tm", d, 0, 1000, item)
	}
	require.Equal(t, []any{4, "stage", 6}, seen)
}
