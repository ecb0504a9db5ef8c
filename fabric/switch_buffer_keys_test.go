package fabric

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// switch.alpha and switch.queue_reserve_bytes reach every switch's
// traffic manager and change what a lossy incast does: of a 300 KB
// buffer, the switches hold at most 267,970 B with alpha 8 against
// 34,544 B with alpha 1/8, and drop 181 packets against 356; and every
// lossy queue keeps its reserve, set aside from the shared pool.
func TestSwitchAlphaAndQueueReserveReachTheSwitches(t *testing.T) {
	run := func(extra string) *Run {
		return completeScenario(t, "buffer.yaml", fmt.Sprintf(`
name: lossy-incast
seed: 1
topology: {kind: leafspine, leaves: 2, spines: 2, hosts_per_leaf: 4}
switch: {buffer_bytes: 300000%s}
nic: {cc: dcqcn}
workload: {kind: incast, senders: 6, receiver: 0, bytes: 262144}
`, extra))
	}
	low, high := run(", alpha: 0.125").Results(), run(", alpha: 8").Results()
	require.Less(t, low.MaxQueueBytes, high.MaxQueueBytes)
	require.Less(t, high.Drops, low.Drops, "a queue allowed more of the buffer drops less of a lone incast")

	r := run(", queue_reserve_bytes: 2540")
	for _, sw := range r.Cluster.Switches() {
		c := sw.Config().TM
		require.Equal(t, uint64(2540), c.QueueReserveBytes)
		require.Equal(t, uint64(10*c.Ports*c.Classes), sw.TM().Buffer().ReserveCells(), "10 cells for each lossy queue")
	}
	res := r.Results()
	require.Equal(t, res.Flows, res.Completed)
}
