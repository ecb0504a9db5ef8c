package fabric

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// Collectives under DCQCN complete: an all-to-all of 240 flows on 16
// endpoints and a halving-doubling all-reduce of 8 MB on 64. Both once
// went quiet with flows unfinished: a QP that could not send yet (paced)
// was looked at outside its timers, after a congestion-control event had
// come due and before anything served it; the time it asked for was then
// in the past, nothing was scheduled, and the QP never sent again (the
// all-to-all stopped at 325 us with 238 of 240 flows complete).
func TestCollectivesDoNotStallOnAPastDueEvent(t *testing.T) {
	for _, c := range []struct {
		name                  string
		leaves, spines, hosts int
		kind                  string
		bytes                 uint64
	}{
		{"alltoall", 4, 2, 4, "alltoall", 256 << 10},
		{"hd-allreduce", 8, 8, 8, "hd_allreduce", 8 << 20},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := DefaultScenario()
			require.NoError(t, err)
			s.Topology.Leaves, s.Topology.Spines, s.Topology.HostsPerLeaf = c.leaves, c.spines, c.hosts
			s.Switch.ECN = &ECNSpec{KminBytes: 100000, KmaxBytes: 400000, Pmax: 0.2}
			s.Switch.PFCClasses = []int{0}
			s.NIC.CC = "dcqcn"
			s.Workload = ScenarioWorkload{Kind: c.kind, Bytes: c.bytes}
			r, err := NewRun(s)
			require.NoError(t, err)
			require.NoError(t, r.Complete(context.Background(), 10*rtlmodel.Microsecond, 0, nil))
			require.Equal(t, len(r.Flows), r.Done())
		})
	}
}
