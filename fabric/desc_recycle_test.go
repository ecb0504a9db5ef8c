package fabric

import (
	"context"
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// Every model keeps what the descriptor pool's partial clearing relies on
// (packet.DescPool.Audit): a run's recycled descriptors have no header
// bytes past their length and no tail written behind EditTail, in runs
// whose packets carry each tail field: PFC frames, HPCC telemetry, SACK
// bitmaps of sprayed packets, and trimmed frames.
func TestRecycledDescriptorsAreClean(t *testing.T) {
	cases := map[string]struct {
		change func(s *Scenario)
		shows  func(r *Run) uint64 // what the case must have exercised
	}{
		"pfc": {func(s *Scenario) {
			s.Switch.PFCClasses = []int{0}
			s.Workload = ScenarioWorkload{Kind: "incast", Senders: 7, Receiver: 0, Bytes: 1 << 20}
		}, func(r *Run) uint64 { return r.Results().PFCFrames }},
		"hpcc": {func(s *Scenario) {
			s.NIC.CC = "hpcc"
			s.Workload.Bytes = 256 << 10
		}, func(r *Run) uint64 { return sumCounters(r.Cluster.Engine, "/int_acks")["/int_acks"] }},
		"spray": {func(s *Scenario) {
			// an uplink with half its lanes down puts sprayed packets
			// out of order, which the receiver's ACKs report in SACKs
			s.NIC.Paths, s.Switch.LB = "spray", "spray"
			s.Topology.DegradedUplink = "0/4/2"
			s.Workload.Bytes = 256 << 10
		}, func(r *Run) uint64 { return sumCounters(r.Cluster.Engine, "/rx_out_of_order")["/rx_out_of_order"] }},
		"trimming": {func(s *Scenario) {
			s.NIC.CC, s.NIC.Stack, s.NIC.Paths = "eqds", "uet", "spray"
			s.Switch.LB, s.Switch.Trimming, s.Switch.PFCClasses, s.Switch.BufferBytes = "spray", true, nil, 300000
			s.Workload = ScenarioWorkload{Kind: "incast", Senders: 7, Receiver: 0, Bytes: 256 << 10}
		}, func(r *Run) uint64 { return r.Results().Trims }},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			s, err := DefaultScenario()
			require.NoError(t, err)
			s.Topology.Leaves, s.Topology.Spines, s.Topology.HostsPerLeaf = 2, 2, 4
			c.change(s)
			r, err := NewRun(s)
			require.NoError(t, err)
			require.NoError(t, r.Complete(context.Background(), 10*rtlmodel.Microsecond, 0, nil))
			require.NotZero(t, c.shows(r))
			tails, err := r.Cluster.Pool.Audit()
			require.NoError(t, err)
			require.NotZero(t, tails, "no recycled descriptor carried a tail")
		})
	}
}

// HPCC's sender reads the hops of the data path and no others: with one
// host per leaf every flow crosses leaf, spine and leaf, so each echoed
// INT stack holds three hop records; an ACK that collected records of its
// own on the way back would hold more, and data that collected none, none.
func TestHPCCEchoesTheDataPathsHops(t *testing.T) {
	s, err := DefaultScenario()
	require.NoError(t, err)
	s.Topology.Leaves, s.Topology.Spines, s.Topology.HostsPerLeaf = 4, 2, 1
	s.NIC.CC = "hpcc"
	s.Workload.Bytes = 256 << 10
	r, err := NewRun(s)
	require.NoError(t, err)
	require.NoError(t, r.Complete(context.Background(), 10*rtlmodel.Microsecond, 0, nil))
	n := sumCounters(r.Cluster.Engine, "/int_acks", "/int_hops")
	require.NotZero(t, n["/int_acks"])
	require.Equal(t, 3*n["/int_acks"], n["/int_hops"])
}
