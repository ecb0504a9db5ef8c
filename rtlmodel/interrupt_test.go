package rtlmodel

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// An interrupt ends a run of partitions early, soon after it comes, at a
// time both devices have reached: what they saw is what a run to that
// time sees, and a run on from there sees what an uninterrupted run does.
func TestInterruptEndsARunAtACleanPoint(t *testing.T) {
	const crossLatency = 40
	for _, lookahead := range []Time{30 * Nanosecond, 500, 0} {
		want, wantLogs := twoDevices(t, Options{Seed: 3}, true, lookahead, crossLatency)
		require.NoError(t, want.Run(Forever))
		end := want.Now()

		at := end / 2
		e, logs := twoDevices(t, Options{Seed: 3}, true, lookahead, crossLatency)
		e.Hooks().OnEdge(func(_ *Domain, _ uint64, t Time) {
			if t >= at {
				e.Interrupt()
			}
		})
		require.NoError(t, e.Run(Forever))
		stopped := e.Now()
		require.GreaterOrEqual(t, stopped, at, "lookahead %v", lookahead)
		require.Less(t, stopped, at+100*Nanosecond, "lookahead %v: the run went on long after the interrupt", lookahead)
		require.False(t, e.Idle())

		upTo, upToLogs := twoDevices(t, Options{Seed: 3}, true, lookahead, crossLatency)
		require.NoError(t, upTo.Run(stopped))
		require.Equal(t, upToLogs, logs, "lookahead %v: the interrupted run differs from a run to %v", lookahead, stopped)
		require.Equal(t, upTo.Evals(), e.Evals(), "lookahead %v", lookahead)

		// on from there, without the hook's interrupts
		e.Hooks().edge = nil
		require.NoError(t, e.Run(Forever))
		require.Equal(t, wantLogs, logs, "lookahead %v", lookahead)
		require.Equal(t, end, e.Now(), "lookahead %v", lookahead)
	}
}

// An interrupt no Run has taken waits for the next Run and ends it at
// once, unless withdrawn: then the next Run goes on to until.
func TestWithdrawnInterruptEndsNoRun(t *testing.T) {
	const lookahead, crossLatency = 30 * Nanosecond, 40
	e, _ := twoDevices(t, Options{Seed: 3}, true, lookahead, crossLatency)
	require.NoError(t, e.Run(100*Nanosecond))
	e.Interrupt()
	require.NoError(t, e.Run(200*Nanosecond))
	require.Less(t, e.Now(), 200*Nanosecond, "a pending interrupt ends the next run")
	require.False(t, e.WithdrawInterrupt(), "the run took it")

	e.Interrupt()
	require.True(t, e.WithdrawInterrupt())
	require.NoError(t, e.Run(300*Nanosecond))
	require.Equal(t, 300*Nanosecond, e.Now(), "a withdrawn interrupt ended a run")
}
