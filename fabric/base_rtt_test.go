package fabric

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/nic400g"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/switchasic"
)

// rttSamples runs the scenario and returns the round trips its first
// flow's sender measures: each ACK's arrival at the sender's congestion
// control less the send time of the packet it echoes, which is the RTT
// sample the NIC gives its congestion control (AckEvent.RTT).
func rttSamples(t *testing.T, s *Scenario) (*Run, []rtlmodel.Time) {
	t.Helper()
	r, err := NewRun(s)
	require.NoError(t, err)
	f := r.Flows[0]
	sender := fmt.Sprintf("nic%d", f.Src)
	var mu sync.Mutex
	var rtts []rtlmodel.Time
	r.Cluster.Engine.Hooks().OnTransfer(func(ev *rtlmodel.TransferEvent) {
		d := traceDesc(ev)
		if d == nil || ev.To != sender || d.Src != uint32(f.Dst) || d.Meta.Sent == 0 {
			return
		}
		mu.Lock()
		rtts = append(rtts, ev.Arrive-rtlmodel.Time(d.Meta.Sent))
		mu.Unlock()
	})
	require.NoError(t, r.Complete(context.Background(), 10*rtlmodel.Microsecond, 0, nil))
	require.NotEmpty(t, rtts)
	return r, rtts
}

// HPCC's base RTT T is, as in the artifact, the largest unloaded round
// trip between two hosts of the fabric (FACTS 2.2 S [R13][R14]): a single
// 64 KB flow between the two farthest hosts, which meets no queue, sees
// round trips no longer than T and none shorter than T/1.2, in a
// leaf-spine, a k=4 fat tree, the fat tree with 100 m tier-2 cables and
// the leaf-spine with 1 KB packets. The NICs' one default for every
// fabric (nic400g.DefaultHPCCBaseRTT, 3.5 µs) is 1.6 times the
// leaf-spine's round trip and short of the 100 m cables'.
func TestHPCCBaseRTTIsTheFabricsLongestUnloadedRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name, topo, nic string
		mtu, dst        int
	}{
		{"leafspine", "{kind: leafspine, leaves: 2, spines: 2, hosts_per_leaf: 8}", "{cc: hpcc}", 4096, 15},
		{"leafspine-100m", "{kind: leafspine, leaves: 2, spines: 2, hosts_per_leaf: 8, tier1_cable_mm: 100000}", "{cc: hpcc}", 4096, 15},
		{"fattree", "{kind: fattree, k: 4}", "{cc: hpcc}", 4096, 15},
		{"fattree-100m", "{kind: fattree, k: 4, tier2_cable_mm: 100000}", "{cc: hpcc}", 4096, 15},
		{"fattree-mtu1024", "{kind: fattree, k: 4}", "{cc: hpcc, mtu: 1024}", 1024, 15},
		{"rails", "{kind: rails, rails: 2, leaves: 2, spines: 2, hosts_per_leaf: 4}", "{cc: hpcc}", 4096, 7},
		{"one-leaf", "{kind: leafspine, leaves: 1, spines: 1, hosts_per_leaf: 16}", "{cc: hpcc}", 4096, 15},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := ParseScenario(tc.name+".yaml", []byte(fmt.Sprintf(`
topology: %s
nic: %s
workload: {kind: incast, senders: 1, receiver: %d, bytes: %d}
`, tc.topo, tc.nic, tc.dst, tc.mtu)))
			require.NoError(t, err)
			r, rtts := rttSamples(t, s)
			base := r.Cluster.NICs[0].Config().HPCCBaseRTT
			require.Len(t, rtts, 1)
			rtt := rtts[0]
			t.Logf("T %v, round trip %v (T/RTT %.3f)", base, rtt, float64(base)/float64(rtt))
			require.GreaterOrEqual(t, base, rtt, "T must cover the unloaded round trip")
			require.LessOrEqual(t, float64(base), 1.2*float64(rtt), "T far above the unloaded round trip")
		})
	}
}

// A scenario's nic.hpcc_base_rtt_us is the HPCC NICs' T, to the
// nanosecond, in place of the fabric's round trip; 0 is the fabric's.
func TestScenarioSetsTheHPCCBaseRTT(t *testing.T) {
	for _, c := range []struct {
		key  string
		want rtlmodel.Time
	}{
		{"", 2199 * rtlmodel.Nanosecond},
		{", hpcc_base_rtt_us: 0", 2199 * rtlmodel.Nanosecond},
		{", hpcc_base_rtt_us: 12", 12 * rtlmodel.Microsecond},
		{", hpcc_base_rtt_us: 2.5004", 2500 * rtlmodel.Nanosecond},
	} {
		s, err := ParseScenario("s.yaml", []byte(`
topology: {kind: leafspine, leaves: 2, spines: 2, hosts_per_leaf: 8}
nic: {cc: hpcc`+c.key+`}
workload: {kind: permutation, bytes: 4096}
`))
		require.NoError(t, err)
		r, err := NewRun(s)
		require.NoError(t, err)
		for _, n := range r.Cluster.NICs {
			require.Equal(t, c.want, n.Config().HPCCBaseRTT, c.key)
		}
	}
}

// A star's HPCC NICs take the star's round trip, through its one switch:
// the one-leaf fabric's (1.2 µs, within 0.3 % of its measured round trip,
// TestHPCCBaseRTTIsTheFabricsLongestUnloadedRoundTrip); with one NIC
// there is no round trip, and the NIC keeps its default.
func TestStarHPCCBaseRTTIsItsRoundTrip(t *testing.T) {
	hpcc := func(i int) nic400g.Config {
		c := nic400g.DefaultConfig(uint32(i))
		c.CC = "hpcc"
		return c
	}
	s, err := NewStar(2, switchasic.DefaultConfig(), hpcc, rtlmodel.Options{})
	require.NoError(t, err)
	for _, n := range s.NICs {
		require.Equal(t, 1200*rtlmodel.Nanosecond, n.Config().HPCCBaseRTT)
	}
	s, err = NewStar(1, switchasic.DefaultConfig(), hpcc, rtlmodel.Options{})
	require.NoError(t, err)
	require.Zero(t, s.NICs[0].Config().HPCCBaseRTT)
}
