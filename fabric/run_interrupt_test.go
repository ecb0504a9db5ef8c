package fabric

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// A context that ends within a step ends the step early, soon after, at
// a time every device has reached: Complete returns the context's error,
// and the results are those of a run to that time. (The context ends,
// and the engine is interrupted as the context's end does it, from the
// run's own transfers, for the test to know when.)
func TestCompleteEndsAStepEarlyWhenItsContextEnds(t *testing.T) {
	const at = 60 * rtlmodel.Microsecond
	newRun := func(atTransfer func()) *Run {
		s, err := DefaultScenario()
		require.NoError(t, err)
		r, err := NewRun(s)
		require.NoError(t, err)
		e := r.Cluster.Engine
		e.Hooks().OnTransfer(func(*rtlmodel.TransferEvent) {
			if e.Now() >= at {
				atTransfer()
			}
		})
		return r
	}
	ctx, cancel := context.WithCancel(context.Background())
	var r *Run
	r = newRun(func() { cancel(); r.Cluster.Engine.Interrupt() })
	// one step longer than the whole run
	err := r.Complete(ctx, rtlmodel.Second, 0, nil)
	require.ErrorIs(t, err, context.Canceled)
	stopped := r.Cluster.Engine.Now()
	require.GreaterOrEqual(t, stopped, at)
	require.Less(t, stopped, at+rtlmodel.Microsecond, "the step went on long after the interrupt")
	require.Less(t, r.Done(), len(r.Flows))
	require.Positive(t, r.Done(), "no flow completed: the run was interrupted too soon to tell")

	upTo := newRun(func() {})
	require.NoError(t, upTo.Complete(context.Background(), stopped, stopped, nil))
	got, err := json.Marshal(r.Results())
	require.NoError(t, err)
	want, err := json.Marshal(upTo.Results())
	require.NoError(t, err)
	require.JSONEq(t, string(want), string(got))
}

// An interrupt that comes as Complete returns (its context ends in the
// last step, too late to end it) belongs to that Complete: a later Step
// or Complete of the same run runs to its end rather than stopping at
// once. (The engine is interrupted as the context's end does it, from the
// last step's progress, for the test to know when.)
func TestCompleteLeavesNoInterruptBehind(t *testing.T) {
	const first, later = 20 * rtlmodel.Microsecond, 30 * rtlmodel.Microsecond
	s, err := DefaultScenario()
	require.NoError(t, err)
	r, err := NewRun(s)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	err = r.Complete(ctx, 10*rtlmodel.Microsecond, first, func(int) {
		if r.Cluster.Engine.Now() >= first {
			cancel()
			r.Cluster.Engine.Interrupt()
		}
	})
	require.ErrorIs(t, err, context.Canceled)
	require.Equal(t, first, r.Cluster.Engine.Now())
	require.Less(t, r.Done(), len(r.Flows), "the run ended: nothing left to stop")

	done, err := r.Step(later)
	require.NoError(t, err)
	require.False(t, done)
	require.Equal(t, later, r.Cluster.Engine.Now(), "a step after Complete stopped at once")
}
