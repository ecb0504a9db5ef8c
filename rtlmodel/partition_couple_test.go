package rtlmodel

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// Partitions joined by no link run as far as they like, so a component
// that wakes one in another partition (Handle.WakeAt, as a host tells
// another that a flow it waits for is done) finds it run past the wake:
// the run stops with an error naming it. Coupled (Couple), the two run no
// further apart than the lookahead, and every wake lands where the run of
// all devices edge by edge puts it.
func TestCoupledPartitionsWakeEachOther(t *testing.T) {
	run := func(onePart, couple bool) ([]string, error) {
		var woken []string
		e := NewEngine(Options{OnePartition: onePart})
		// a, made first, is woken by b, made after it: without a bound, a
		// runs first and to the end
		require.NoError(t, e.Partition("a"))
		da, err := e.AddDomain("a", 750, 0)
		require.NoError(t, err)
		a, err := e.Add(da, "a", fn(func(ed Edge) Wake {
			woken = append(woken, fmt.Sprint(ed.Time))
			return Never
		}))
		require.NoError(t, err)
		require.NoError(t, e.Partition("b"))
		db, err := e.AddDomain("b", 1000, 0)
		require.NoError(t, err)
		n := 0
		b, err := e.Add(db, "b", fn(func(ed Edge) Wake {
			if n++; n%7 == 0 {
				a.WakeAt(ed.Time + 3*Nanosecond)
			}
			if n == 200 {
				return Never
			}
			return ed.Next()
		}))
		require.NoError(t, err)
		if couple {
			require.NoError(t, e.Couple(b, a))
		}
		require.NoError(t, e.SetLookahead(2*Nanosecond))
		return woken, e.Run(Forever)
	}
	want, err := run(true, false)
	require.NoError(t, err)
	require.Len(t, want, 1+200/7, "its first edge, then each wake")
	_, err = run(false, false)
	require.ErrorContains(t, err, "a wake: reaches a")
	got, err := run(false, true)
	require.NoError(t, err)
	require.Equal(t, want, got)
}
