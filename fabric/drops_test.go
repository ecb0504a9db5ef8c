package fabric

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// A lossless fabric drops nothing at its switches, yet a go-back-N
// receiver behind sprayed paths of unequal speed (a leaf uplink down to
// one lane) discards what arrives out of order: the results name the
// NICs as the ones that dropped, so the two are not mistaken for each
// other.
func TestLosslessFabricDropsOnlyAtGoBackNReceivers(t *testing.T) {
	r := completeScenario(t, "ooo.yaml", `
name: gbn-sprayed-lossless
seed: 1
topology: {kind: leafspine, leaves: 3, spines: 3, hosts_per_leaf: 8, links_per_spine: 2, degraded_uplink: "0/8/3"}
switch: {lb: spray, pfc_classes: [0]}
nic: {cc: dcqcn, paths: pathaware, recovery: gbn}
workload: {kind: incast, senders: 8, receiver: 0, bytes: 1048576}
`)
	res := r.Results()
	sum := sumCounters(r.Cluster.Engine, "/mmu/dropped", "/rx_ooo_dropped")
	require.Equal(t, res.Flows, res.Completed)
	require.Zero(t, sum["/mmu/dropped"])
	require.Zero(t, res.SwitchDrops)
	require.NotZero(t, sum["/rx_ooo_dropped"], "the scenario no longer reorders; pick one that does")
	require.Equal(t, sum["/rx_ooo_dropped"], res.NICDrops)
	require.Equal(t, res.SwitchDrops+res.NICDrops, res.Drops)
}

// A lossy fabric without trimming drops at its switches' admission, and
// a switch's frames without a route count among the switch drops too.
func TestLossyIncastDropsAtSwitches(t *testing.T) {
	r := completeScenario(t, "lossy.yaml", `
name: lossy-incast
seed: 1
topology: {kind: leafspine, leaves: 2, spines: 2, hosts_per_leaf: 4}
switch: {buffer_bytes: 300000}
nic: {cc: dcqcn}
workload: {kind: incast, senders: 6, receiver: 0, bytes: 262144}
`)
	res := r.Results()
	admitted := sumCounters(r.Cluster.Engine, "/mmu/dropped")["/mmu/dropped"]
	require.NotZero(t, admitted, "the incast no longer overflows the buffer; pick one that does")
	require.Equal(t, admitted, res.SwitchDrops)
	require.Zero(t, res.NICDrops)
	require.Equal(t, res.SwitchDrops, res.Drops)

	m, ok := r.Cluster.Engine.Stats().Lookup("leaf1/pipe0/drop_no_route")
	require.True(t, ok, "no leaf1/pipe0/drop_no_route counter")
	m.(*rtlmodel.Counter).Inc()
	require.Equal(t, admitted+1, r.Results().SwitchDrops, "a frame without a route is a switch drop")
}
