package fabric

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// opScenario is a permutation of 256 KB flows on 8 hosts (2 leaves, 2
// spines) over a lossless fabric, every flow of operation op, each on one
// path (a requester takes READ responses in PSN order, nic400g).
func opScenario(stack, op string) string {
	return fmt.Sprintf(`name: ops
seed: 3
topology: {kind: leafspine, leaves: 2, spines: 2, hosts_per_leaf: 4}
switch: {pfc_classes: [0], ecn: {kmin_bytes: 100000, kmax_bytes: 400000, pmax: 0.2}}
nic: {cc: dcqcn, stack: %s}
workload: {kind: permutation, bytes: 262144, op: %s}
`, stack, op)
}

// Every operation moves a flow's data from its source to its destination
// on each stack: a SEND as a WRITE does, packet for packet, and a READ as
// responses to a request the destination posts, which crosses the fabric
// first, so its flows end later, by less than a round trip.
func TestEveryOperationCrossesTheFabric(t *testing.T) {
	for _, stack := range []string{"roce-ipv4", "roce-ipv6", "uet"} {
		res := map[string]*Results{}
		for _, op := range []string{"write", "send", "read"} {
			r := completeScenario(t, "ops.yaml", opScenario(stack, op)).Results()
			require.Equal(t, r.Flows, r.Completed, "%s %s", stack, op)
			require.Zero(t, r.Drops, "%s %s", stack, op)
			require.Equal(t, uint64(8*64), r.DataPackets, "%s %s: every data packet delivered once", stack, op)
			for _, f := range r.PerFlow {
				if op == "write" {
					require.Empty(t, f.Op)
				} else {
					require.Equal(t, op, f.Op)
				}
			}
			res[op] = r
		}
		w, s, rd := res["write"], res["send"], res["read"]
		for i := range w.PerFlow {
			require.Equal(t, w.PerFlow[i].FCTNS, s.PerFlow[i].FCTNS, "%s flow %d: a send takes a write's time", stack, i)
			d := rd.PerFlow[i].FCTNS - w.PerFlow[i].FCTNS
			require.Greater(t, d, 0.0, "%s flow %d: the read request crosses first", stack, i)
			require.Less(t, d, 3000.0, "%s flow %d: a read ends within a round trip of the write", stack, i)
		}
	}
}

// A trace mixes operations between the same two hosts on one QP pair:
// host 0 writes to host 1, then reads from it on the same QP, while host 1
// reads from host 0 and sends to it. Each flow completes at the host that
// posted it, in the order it was posted.
func TestTraceMixesOperationsOnOneQPPair(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "t.csv")
	require.NoError(t, os.WriteFile(trace, []byte("src,dst,bytes,start_ns,op\n0,1,65536,0,write\n1,0,65536,0,read\n0,1,65536,0,read\n1,0,4096,0,send\n"), 0o644))
	s, err := ParseScenario("mix.yaml", []byte(fmt.Sprintf(`name: mix
topology: {kind: leafspine, leaves: 2, spines: 2, hosts_per_leaf: 1}
workload: {kind: csv, file: %s}
`, trace)))
	require.NoError(t, err)
	r := completeRun(t, s)
	res := r.Results()
	require.Equal(t, 4, res.Completed)
	require.Equal(t, []int{0, 0, 1, 1}, []int{r.Flows[0].Poster(), r.Flows[1].Poster(), r.Flows[2].Poster(), r.Flows[3].Poster()})
	end := func(i int) float64 { return res.PerFlow[i].StartNS + res.PerFlow[i].FCTNS }
	require.Less(t, end(0), end(1), "host 0's write completes before its read on the same QP")
	require.Less(t, end(2), end(3), "host 1's read completes before its send on the same QP")
	require.Equal(t, uint64(16+16+16+1), res.DataPackets)
	for nic, want := range map[string]uint64{"nic0/read_requests": 1, "nic1/read_requests": 1,
		"nic0/read_responses": 16, "nic1/read_responses": 16} {
		require.Equal(t, want, counter(r.Cluster, nic), nic)
	}

}

// Reads over sprayed paths: a requester that takes responses in PSN order
// drops those that overtook others and issues its reads again, and the
// permutation ends several times later than its writes; one that places
// them out of order (nic.ooo_reads) drops and re-issues nothing and ends
// within a few microseconds of the writes, the requests' one-way trip.
func TestOutOfOrderReadsOverSprayedPaths(t *testing.T) {
	scenario := func(op, nic string) string {
		return `name: ooo
seed: 3
topology: {kind: leafspine, leaves: 2, spines: 2, hosts_per_leaf: 4}
switch: {pfc_classes: [0], ecn: {kmin_bytes: 100000, kmax_bytes: 400000, pmax: 0.2}}
nic: {cc: dcqcn, paths: spray, reorder_tolerance: 64` + nic + `}
workload: {kind: permutation, bytes: 262144, op: ` + op + `}
`
	}
	run := func(op, nic string) (*Results, uint64) {
		r := completeScenario(t, "ooo.yaml", scenario(op, nic))
		res := r.Results()
		require.Equal(t, res.Flows, res.Completed, "%s %s", op, nic)
		return res, sumCounters(r.Cluster.Engine, "/read_reissues")["/read_reissues"]
	}
	writes, _ := run("write", "")
	inOrder, inOrderReissues := run("read", "")
	ooo, oooReissues := run("read", ", ooo_reads: true")
	t.Logf("job time: writes %.2f us, reads in order %.2f us (%d re-issues, %d NIC drops), out of order %.2f us",
		writes.JobTimesNS[0]/1e3, inOrder.JobTimesNS[0]/1e3, inOrderReissues, inOrder.NICDrops, ooo.JobTimesNS[0]/1e3)
	require.NotZero(t, inOrderReissues)
	require.NotZero(t, inOrder.NICDrops)
	require.Greater(t, inOrder.JobTimesNS[0], 2*writes.JobTimesNS[0])
	require.Zero(t, oooReissues)
	require.Zero(t, ooo.NICDrops)
	require.Less(t, ooo.JobTimesNS[0], writes.JobTimesNS[0]+3000)
}
