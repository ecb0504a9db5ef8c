package fabric

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// On a lossless fabric nothing is lost, so when sprayed paths reorder a
// flow's packets past the NICs' reorder tolerance (3 later packets) the
// senders' SACK-driven retransmissions are all needless: the results say
// so, every retransmission received a second time.
func TestNeedlessRetransmissionsAreCountedAsDuplicates(t *testing.T) {
	r := completeScenario(t, "dup.yaml", `
name: sprayed-fat-tree
seed: 1
topology: {kind: fattree, k: 4}
switch: {pfc_classes: [0], lb: spray}
nic: {cc: dcqcn, paths: spray}
workload: {kind: permutation, bytes: 1048576}
`)
	res := r.Results()
	require.Equal(t, res.Flows, res.Completed)
	require.Zero(t, res.Drops)
	require.NotZero(t, res.Retransmits, "the paths no longer reorder; pick a scenario whose do")
	require.Equal(t, res.Retransmits, res.DuplicatesReceived)
	require.Equal(t, sumCounters(r.Cluster.Engine, "/rx_duplicate")["/rx_duplicate"], res.DuplicatesReceived)
}
