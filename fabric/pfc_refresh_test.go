package fabric

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A pause lasts only the quanta its XOFF gives: 65,535, 83.9 us at 400G.
// In a 24:1 incast under TIMELY on a lossless 4x2x8 leaf-spine the
// senders' ingress ports stay above XON for longer than that (pauses of
// up to 315 us). The switches send XOFF again at half the pause while
// the port stays above XON, so the senders stay paused and the lossless
// fabric drops nothing. Sent once, the XOFF ran out, the senders resumed
// into the headroom, and 1,594 packets overflowed it.
func TestPFCPauseIsRefreshedWhileTheIngressStaysAboveXON(t *testing.T) {
	r := completeScenario(t, "refresh.yaml", `name: pfc-refresh
seed: 6
topology: {kind: leafspine, leaves: 4, spines: 2, hosts_per_leaf: 8}
switch: {pfc_classes: [0], ecn: {kmin_bytes: 100000, kmax_bytes: 400000, pmax: 0.2}}
nic: {cc: timely}
workload: {kind: incast, senders: 24, receiver: 18, bytes: 1048576}
`).Results()
	require.Equal(t, r.Flows, r.Completed)
	require.Greater(t, r.PFCPausedMaxNS, 84_000.0, "a pause longer than one XOFF's quanta")
	require.Zero(t, r.SwitchDrops, "a lossless fabric dropped packets")
}
