package fabric

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Reads placed out of order over a trimming fabric ask for each trimmed
// response alone (nic400g, nic_read_range.go), so a read incast costs
// what the same incast of writes does. A k=8 fat tree (128 hosts, DLB,
// sprayed paths, 4 MB buffers, trimming), 32:1 incast of 256 KB under
// DCQCN: the reads are placed by 182.04 us and the writes by 184.81 us;
// the responders send 2,048 responses and one more for each of the 3,944
// trimmed, none is received twice and no read is issued again.
//
// Issued again for the rest of the read at each gap, the same reads took
// 665.56 us: 17,637 responses, 14,381 trimmed, 1,641 received twice, 433
// reads issued again and 47 timeouts.
func TestTrimmedReadsAreAskedForAlone(t *testing.T) {
	scenario := func(op string) string {
		return `name: read-trim
seed: 11
topology: {kind: fattree, k: 8}
switch: {lb: dlb, trimming: true, buffer_bytes: 4000000}
nic: {cc: dcqcn, paths: spray, reorder_tolerance: 64, ooo_reads: true}
workload: {kind: incast, senders: 32, bytes: 262144, op: ` + op + `}
`
	}
	writes := completeScenario(t, "w.yaml", scenario("write")).Results()
	run := completeScenario(t, "r.yaml", scenario("read"))
	reads := run.Results()
	require.Equal(t, reads.Flows, reads.Completed)
	c := sumCounters(run.Cluster.Engine, "/read_responses", "/rx_trimmed", "/read_reissues", "/timeouts",
		"/rx_duplicate", "/read_range_requests")
	t.Logf("job time: reads %.2f us, writes %.2f us; %v", reads.JobTimesNS[0]/1e3, writes.JobTimesNS[0]/1e3, c)
	require.NotZero(t, c["/rx_trimmed"], "the incast trims")
	require.Equal(t, 32*64+c["/rx_trimmed"], c["/read_responses"], "each trimmed response sent once more")
	require.Equal(t, c["/rx_trimmed"], reads.Retransmits)
	require.Zero(t, c["/read_reissues"])
	require.Zero(t, c["/timeouts"])
	require.Zero(t, c["/rx_duplicate"])
	require.Less(t, reads.JobTimesNS[0], 1.05*writes.JobTimesNS[0])
}
