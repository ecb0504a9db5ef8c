package fabric

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// A 2:1 HPCC incast on a lossless leaf-spine holds the receiver's link
// near η = 0.95 of what the same incast gets with no congestion control
// (less the 42 B INT stack per frame), and with its queue short of the
// PFC threshold (FACTS 2.2: near-zero queues at η). It does so when the
// base RTT T the senders measure against is the fabric's (its largest
// unloaded round trip, 2.2 µs through three switches); at htsim's 12 µs the
// senders start with a window of four BDPs, the EWMA trails the 2 µs loop
// by 12 µs and the window falls to 0.4 of the line after the first
// queue drains: 0.78 of the uncontrolled goodput, with PFC pauses.
func TestHPCCIncastHoldsTheBottleneckNearEta(t *testing.T) {
	run := func(cc string) *Results {
		r := completeScenario(t, cc+".yaml", fmt.Sprintf(`
name: hpcc-incast-2
topology: {kind: leafspine, leaves: 2, spines: 2, hosts_per_leaf: 8}
switch: {pfc_classes: [0]}
nic: {cc: %s}
workload: {kind: incast, senders: 2, receiver: 0, bytes: 4194304}
`, cc))
		res := r.Results()
		require.Equal(t, res.Flows, res.Completed, cc)
		return res
	}
	none, hpcc := run("none"), run("hpcc")
	ratio := hpcc.GoodputGbps / none.GoodputGbps
	t.Logf("goodput none %.1f Gb/s, hpcc %.1f Gb/s (%.3f); hpcc PFC frames %d, max queue %d B",
		none.GoodputGbps, hpcc.GoodputGbps, ratio, hpcc.PFCFrames, hpcc.MaxQueueBytes)
	require.Greater(t, ratio, 0.9, "hpcc holds the bottleneck near η")
	require.Zero(t, hpcc.PFCFrames, "hpcc keeps the queue short of PFC")
}
