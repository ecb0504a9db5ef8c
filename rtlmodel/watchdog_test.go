package rtlmodel

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

// sleepyEngine has a component that moves something at cycle 0, sleeps
// to cycle wake (far past the watchdog's 500 cycles) and moves something
// again there if moves; with parts, a second partition linked to it sits
// idle beside it, so that the windowed run is tried as well.
func sleepyEngine(t *testing.T, parts bool, wake uint64, moves bool) *Engine {
	e := NewEngine(Options{WatchdogCycles: 500})
	if parts {
		require.NoError(t, e.Partition("a"))
	}
	d, err := e.AddDomain("a", 1000, 0)
	require.NoError(t, err)
	var h *Handle
	h, err = e.Add(d, "sleeper", fn(func(ed Edge) Wake {
		switch {
		case ed.Cycle == 0:
			h.Progress()
			return Wake(wake)
		case moves:
			h.Progress()
		}
		return Never
	}))
	require.NoError(t, err)
	if parts {
		require.NoError(t, e.Partition("b"))
		db, err := e.AddDomain("b", 1000, 0)
		require.NoError(t, err)
		idle, err := e.Add(db, "idle", fn(func(Edge) Wake { return Never }))
		require.NoError(t, err)
		_, err = NewLink[int]("sleeper>idle", h, idle, LinkConfig{Latency: 1, Width: 1})
		require.NoError(t, err)
	}
	return e
}

// A run asleep until a wake far ahead that moves something (a host waiting
// for its next flow's start) has not stalled; one whose component wakes
// after the watchdog's span and moves nothing has.
func TestWatchdogSparesLongSleepToWork(t *testing.T) {
	for _, parts := range []bool{false, true} {
		require.NoError(t, sleepyEngine(t, parts, 100_000, true).Run(Forever), "partitions=%v", parts)

		err := sleepyEngine(t, parts, 100_000, false).Run(Forever)
		var dl *DeadlockError
		require.True(t, errors.As(err, &dl), "partitions=%v: %v", parts, err)
		require.Contains(t, err.Error(), "no progress for 500 cycles")
		require.Equal(t, Time(100_000_000), dl.Time)
	}
}
