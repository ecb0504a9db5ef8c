package fabric

import (
	"context"
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// A workload that starts after a long idle stretch runs to the end: the
// hosts waiting for their flows' start are no deadlock, however long the
// wait is beside the watchdog's span (about 40 ms of the fastest clock).
func TestWorkloadAfterLongIdleCompletes(t *testing.T) {
	s, err := ParseScenario("idle.yaml", []byte(`name: idle
topology: {kind: leafspine, leaves: 2, spines: 2, hosts_per_leaf: 2}
workload: {kind: permutation, bytes: 4096, start_us: 50000}
`))
	require.NoError(t, err)
	r, err := NewRun(s)
	require.NoError(t, err)
	require.NoError(t, r.Complete(context.Background(), rtlmodel.Millisecond, 0, nil))
	require.Equal(t, len(r.Flows), r.Done())
	require.Greater(t, r.Cluster.Engine.Now(), 50*rtlmodel.Millisecond)
}
