package fabric

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// eqdsIncast is an 8:1 incast of 1 MB under EQDS into one host of a
// lossy leaf-spine of two leaves of 8 hosts with 500 KB buffers, of
// operation op: the data comes to the incast's receiver, written by its
// senders or read by it from them.
func eqdsIncast(op string) string {
	return fmt.Sprintf(`name: eqds-incast
seed: 1
max_time_us: 20000
topology: {kind: leafspine, leaves: 2, spines: 1, hosts_per_leaf: 8}
switch: {buffer_bytes: 500000}
nic: {cc: eqds, mtu: 4096}
workload: {kind: incast, bytes: 1048576, op: %s, senders: 8}
`, op)
}

// Under EQDS the incast's reads come paced by the reader's pulls, as the
// incast's writes do: the eight reads complete by 180.25 us with 179
// frames dropped at the switches, where the writes complete by 304.86 us.
//
// Before, the responders sent every read whole at line rate: 8,648
// frames were dropped and the reads completed by 1,486.97 us.
func TestEQDSIncastOfReadsIsPulled(t *testing.T) {
	w := completeScenario(t, "writes.yaml", eqdsIncast("write")).Results()
	rr := completeScenario(t, "reads.yaml", eqdsIncast("read"))
	r := rr.Results()
	t.Logf("8:1 incast of 1 MB under EQDS: writes done by %.2f us, %d switch drops; reads by %.2f us, %d drops",
		w.FCTMaxNS/1e3, w.SwitchDrops, r.FCTMaxNS/1e3, r.SwitchDrops)
	require.Equal(t, r.Flows, r.Completed)
	require.LessOrEqual(t, r.FCTMaxNS, w.FCTMaxNS, "no slower than the writes")
	require.Less(t, r.SwitchDrops, uint64(1000))
	pulls := sumCounters(rr.Cluster.Engine, "/pulls_sent")
	require.Positive(t, pulls["/pulls_sent"], "the reader pulled")
}
