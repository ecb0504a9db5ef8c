package fabric

import (
	"context"
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// reorderDropsRecover runs a scenario whose receivers drop packets beyond
// a small reorder buffer and checks that every flow completes within
// limitNS, with drops beyond the buffer NAKed and no timeout.
func reorderDropsRecover(t *testing.T, yaml string, limitNS float64) {
	t.Helper()
	s, err := ParseScenario("s.yaml", []byte(yaml))
	require.NoError(t, err)
	r, err := NewRun(s)
	require.NoError(t, err)
	require.NoError(t, r.Complete(context.Background(), 10*rtlmodel.Microsecond, 0, nil))
	res := r.Results()
	require.Equal(t, res.Flows, res.Completed, "every flow completes")
	require.Less(t, res.SimTimeNS, limitNS)
	nic := sumCounters(r.Cluster.Engine, "/reorder_full_drops", "/nak_received", "/timeouts")
	require.Positive(t, nic["/reorder_full_drops"])
	require.Positive(t, nic["/nak_received"])
	require.Zero(t, nic["/timeouts"])
}

// An 8:1 incast of 4 MB SENDs sprayed over four spines, whose switches
// also pick ports at random, into receivers with a 4-packet reorder
// buffer: a hole of three lost packets leaves room for at most two SACKed
// ones behind it, never the three selective repeat waits for, and what
// overtakes it by more is dropped. When those drops went unreported, each
// such hole waited for a 200 us timeout, and after 20 ms one flow had
// sent no further than PSN 3,262 of its 4,096 packets. Each drop's NAK
// now has the sender resend what no SACK has reported, and every flow
// completes within 1 ms, with no timeout.
func TestSmallReorderBufferOverSprayedPathsCompletes(t *testing.T) {
	reorderDropsRecover(t, `
name: small-reorder-buffer
seed: 975
max_time_us: 20000
topology: {kind: leafspine, leaves: 4, spines: 4, hosts_per_leaf: 8}
switch: {lb: random, pfc_classes: [0]}
nic: {cc: swift, paths: spray, mtu: 1024, reorder_packets: 4}
workload: {kind: incast, bytes: 4194304, op: send, senders: 8}
`, 1e6)
}

// The same drops under EQDS: a permutation of 1 MB SENDs sprayed over four
// spines, over long host cables, into 4-packet reorder buffers. When a
// drop beyond the buffer went unreported, the credit its packet had spent
// was lost with it and the hole waited for a timeout: 10 timeouts, done
// at 950 us. The receiver now NACKs the dropped packet and pulls for it,
// as a go-back-N receiver does, and NAKs the hole, which the sender
// resends when lost outright: no timeout, done by 210 us.
func TestSmallReorderBufferUnderEQDSNeedsNoTimeout(t *testing.T) {
	reorderDropsRecover(t, `
name: small-reorder-buffer-eqds
seed: 975
max_time_us: 20000
topology: {kind: leafspine, leaves: 2, spines: 4, hosts_per_leaf: 8, host_cable_mm: 100000}
switch: {lb: random, pfc_classes: [0]}
nic: {cc: eqds, paths: spray, mtu: 1024, reorder_packets: 4}
workload: {kind: permutation, bytes: 1048576, op: send}
`, 400e3)
}
