package fabric

import (
	"context"
	"fmt"
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// degradedRun runs one of experiment 4's scenarios and returns, with its
// results, the share of leaf 0's uplink bytes that took the degraded
// uplink (port 8, 200G of the four 400G uplinks 8 to 11) and the sums
// over the NICs of their reorder-buffer drops, timeouts and NAKs received
// (keyed by counter, as "/timeouts").
func degradedRun(t *testing.T, name string) (res *Results, slowShare float64, nic map[string]uint64) {
	t.Helper()
	s, err := LoadScenario("../docs/scenarios/" + name + ".yaml")
	require.NoError(t, err)
	r, err := NewRun(s)
	require.NoError(t, err)
	require.NoError(t, r.Complete(context.Background(), 10*rtlmodel.Microsecond, 0, nil))
	st := r.Cluster.Engine.Stats()
	var up [4]uint64
	for i := range up {
		m, ok := st.Lookup(fmt.Sprintf("leaf0/port%d/tx/bytes", 8+i))
		require.True(t, ok, "leaf0 uplink %d has no byte counter", 8+i)
		up[i] = m.(*rtlmodel.Counter).Value()
	}
	total := up[0] + up[1] + up[2] + up[3]
	require.NotZero(t, total)
	return r.Results(), float64(up[0]) / float64(total), sumCounters(r.Cluster.Engine, "/reorder_full_drops", "/timeouts", "/nak_received")
}

// Experiment 4's claims (docs/experiments.md): oblivious spraying puts a
// quarter of leaf 0's uplink traffic on the 200G uplink; path-aware
// spraying moves traffic off it and finishes the permutation sooner when
// every packet is placed directly (UET); on RoCEv2 framing its
// reordering reaches past the receivers' reorder buffers, which drop
// packets and NAK the holes, and the resends those NAKs draw recover the
// flows without a retransmission timeout: the permutation still ends
// sooner than with oblivious spraying, and within a fifth of UET's time.
func TestPathAwareSprayingAvoidsTheDegradedUplink(t *testing.T) {
	obl, oblShare, oblNIC := degradedRun(t, "exp4_degraded_spray")
	aware, awareShare, awareNIC := degradedRun(t, "exp4_degraded_pathaware")
	oblDrops, awareDrops := oblNIC["/reorder_full_drops"], awareNIC["/reorder_full_drops"]
	require.InDelta(t, 0.25, oblShare, 0.01, "oblivious spraying's share of the degraded uplink")
	require.Less(t, awareShare, 0.20, "path-aware spraying's share of the degraded uplink")
	require.Greater(t, awareShare, 200.0/1400-0.01, "path-aware spraying should not starve the degraded uplink below its share of capacity")
	require.Less(t, aware.JobTimesNS[0], 0.8*obl.JobTimesNS[0], "path-aware JCT against oblivious on UET")
	require.Zero(t, oblDrops+awareDrops+obl.Drops+aware.Drops, "UET places every packet directly")

	oblRoCE, _, oblRoCENIC := degradedRun(t, "exp4_degraded_spray_roce")
	awareRoCE, awareRoCEShare, awareRoCENIC := degradedRun(t, "exp4_degraded_pathaware_roce")
	oblRoCEDrops, awareRoCEDrops := oblRoCENIC["/reorder_full_drops"], awareRoCENIC["/reorder_full_drops"]
	require.Less(t, awareRoCEShare, 0.20, "path-aware spraying on RoCEv2 still avoids the degraded uplink")
	require.Zero(t, oblRoCEDrops)
	require.NotZero(t, awareRoCEDrops, "path-aware spraying's reordering should overflow RoCEv2 reorder buffers")
	require.Equal(t, awareRoCEDrops, awareRoCE.Drops, "the results' drops count the NICs' reorder-buffer drops")
	require.Equal(t, awareRoCEDrops, awareRoCE.NICDrops, "the reorder-buffer drops are the NICs'")
	require.Positive(t, awareRoCENIC["/nak_received"], "each hole the drops open is NAKed")
	require.Zero(t, awareRoCENIC["/timeouts"], "the NAKs' resends recover the drops before a timeout")
	require.Less(t, awareRoCE.JobTimesNS[0], oblRoCE.JobTimesNS[0], "path-aware JCT against oblivious on RoCEv2")
	require.Less(t, awareRoCE.JobTimesNS[0], 1.2*aware.JobTimesNS[0], "path-aware JCT on RoCEv2 against UET")
}
