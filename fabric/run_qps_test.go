package fabric

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// A fabric of more endpoints than a NIC's default QPs (1024) runs: the
// hosts number a connection's QP by its peer's endpoint, so each NIC has
// a QP per endpoint. Flows between endpoints on both sides of 1024 (a
// data packet for QP 1025 and its ACK for QP 0, and the reverse)
// complete; a NIC of 1024 QPs indexed its QPs out of range and panicked.
func TestRunBeyondTheDefaultQPs(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "t.csv"), []byte("src,dst,bytes,start_ns\n1025,0,64,0\n0,1025,64,0\n1024,1,64,0\n"), 0o644))
	scenario := "name: qps\nseed: 1\ntopology:\n  kind: leafspine\n  leaves: 9\n  spines: 1\n  hosts_per_leaf: 114\n" +
		"workload:\n  kind: csv\n  file: t.csv\n"
	path := filepath.Join(dir, "s.yaml")
	require.NoError(t, os.WriteFile(path, []byte(scenario), 0o644))
	s, err := LoadScenario(path)
	require.NoError(t, err)
	r, err := NewRun(s)
	require.NoError(t, err)
	require.Len(t, r.Cluster.NICs, 1026)
	require.NoError(t, r.Complete(context.Background(), 10*rtlmodel.Microsecond, 0, nil))
	require.Equal(t, 3, r.Done())
	require.Zero(t, counterSum(r.Cluster.Engine, "bad_qp"))
}
