package fabric

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A trimming fabric trims data alone: every trim the results count is a
// data header that a NIC receives as trimmed or a later switch drops.
// With 30 KB buffers control frames of this all-to-all (ACKs, NACKs,
// pulls) meet full queues and are dropped whole; before, the switches cut
// them to 64 B as well (20 of the 30,476 trims were control frames) and
// the NICs acted on what was cut as if it were whole.
func TestTrimsAreDataHeaders(t *testing.T) {
	r := completeScenario(t, "s.yaml", `name: eqds-gbn-trim-small
seed: 1
topology: {kind: leafspine, leaves: 2, hosts_per_leaf: 8, spines: 2}
switch: {buffer_bytes: 30000, lb: spray, trimming: true}
nic: {cc: eqds, stack: uet, paths: fixed, recovery: gbn}
workload: {kind: alltoall, bytes: 65536}
`)
	require.Equal(t, len(r.Flows), r.Done())
	res := r.Results()
	sum := sumCounters(r.Cluster.Engine, "/rx_trimmed", "/mmu/trimmed_dropped", "/mmu/dropped", "/pulls_sent", "/pulls_received")
	t.Logf("%d trims: %d trimmed headers received by the NICs, %d dropped by a later switch; %d packets dropped by switches",
		res.Trims, sum["/rx_trimmed"], sum["/mmu/trimmed_dropped"], sum["/mmu/dropped"])
	require.Positive(t, res.Trims)
	require.Equal(t, res.Trims, sum["/rx_trimmed"]+sum["/mmu/trimmed_dropped"])
	require.Greater(t, sum["/pulls_sent"], sum["/pulls_received"], "pulls met full queues and were dropped whole")
}
