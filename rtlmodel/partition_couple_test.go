package rtlmodel

import (
	"fmt"
	"slices"
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

// coupledPair is partitions a and b, each with a component busy at every
// 1 ns edge, b waking a sleeper in a 10 ns ahead at every 7th of its edges;
// couple declares their coupling. It returns the sleeper's edges and the
// lengths of the runs of edges each partition made without the other
// running in between.
func coupledPair(t *testing.T, onePart bool, couple func(e *Engine, a, b *Handle) error) (woken []string, runs []int, err error) {
	e := NewEngine(Options{OnePartition: onePart})
	last := ""
	note := func(p string) {
		if p == last {
			runs[len(runs)-1]++
		} else {
			runs, last = append(runs, 1), p
		}
	}
	busy := func(p string, d *Domain, every func(Edge)) *Handle {
		n := 0
		h, err := e.Add(d, p+"/busy", fn(func(ed Edge) Wake {
			note(p)
			if every != nil {
				every(ed)
			}
			if n++; n == 300 {
				return Never
			}
			return ed.Next()
		}))
		require.NoError(t, err)
		return h
	}
	require.NoError(t, e.Partition("a"))
	da, err := e.AddDomain("a", 1000, 0)
	require.NoError(t, err)
	a := busy("a", da, nil)
	sleeper, err := e.Add(da, "a/sleeper", fn(func(ed Edge) Wake {
		woken = append(woken, fmt.Sprint(ed.Time))
		return Never
	}))
	require.NoError(t, err)
	require.NoError(t, e.Partition("b"))
	db, err := e.AddDomain("b", 1000, 0)
	require.NoError(t, err)
	k := 0
	b := busy("b", db, func(ed Edge) {
		if k++; k%7 == 0 {
			sleeper.WakeAt(ed.Time + 10*Nanosecond)
		}
	})
	require.NoError(t, couple(e, a, b))
	require.NoError(t, e.SetLookahead(2*Nanosecond))
	err = e.Run(Forever)
	return woken, runs, err
}

// Partitions coupled within 10 ns (CoupleWithin: every wake between them
// comes 10 ns after the edge that asks for it) run up to 10 ns apart,
// runs of up to 20 edges where the engine's 2 ns lookahead (Couple) gives
// runs of up to 4, with every wake where the run edge by edge puts it. A
// coupling longer than a wake's lead stops the run; coupling a pair twice
// keeps the shorter lookahead.
func TestCoupleWithinLengthensTheWindows(t *testing.T) {
	longest := func(runs []int) int { return slices.Max(runs) }
	within := func(d Time) func(e *Engine, a, b *Handle) error {
		return func(e *Engine, a, b *Handle) error { return e.CoupleWithin(a, b, d) }
	}
	want, _, err := coupledPair(t, true, within(10*Nanosecond))
	require.NoError(t, err)
	require.Len(t, want, 1+300/7)

	got, runs, err := coupledPair(t, false, func(e *Engine, a, b *Handle) error { return e.Couple(b, a) })
	require.NoError(t, err)
	require.Equal(t, want, got)
	require.LessOrEqual(t, longest(runs), 4, "the engine's lookahead: %v", runs)

	got, runs, err = coupledPair(t, false, within(10*Nanosecond))
	require.NoError(t, err)
	require.Equal(t, want, got)
	require.Equal(t, 20, longest(runs), "the coupling's lookahead: %v", runs)

	_, _, err = coupledPair(t, false, within(12*Nanosecond))
	require.ErrorContains(t, err, "a wake: reaches a/sleeper")
	require.ErrorContains(t, err, "within the lookahead of 12ns")

	got, runs, err = coupledPair(t, false, func(e *Engine, a, b *Handle) error {
		require.NoError(t, e.CoupleWithin(a, b, 12*Nanosecond))
		return e.Couple(a, b)
	})
	require.NoError(t, err, "the engine's 2 ns, the shorter, is kept")
	require.Equal(t, want, got)
	require.LessOrEqual(t, longest(runs), 4)

	_, _, err = coupledPair(t, true, func(e *Engine, a, b *Handle) error {
		require.ErrorContains(t, e.CoupleWithin(a, b, 0), "a lookahead of 0")
		return nil
	})
	require.NoError(t, err)
}
