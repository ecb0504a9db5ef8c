package fabric

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// Receivers send CNPs for CE-marked packets only in a fabric that runs
// DCQCN: the other algorithms ignore CNPs (HPCC reads INT, Swift and
// TIMELY delay, NSCC and path-aware spraying the ECN echo of the ACKs,
// EQDS its receiver's credit), and CNPs nobody reads only load the
// reverse path. The same 7:1 incast marks packets under every algorithm.
func TestOnlyDCQCNReceiversSendCNPs(t *testing.T) {
	for _, cc := range []string{"dcqcn", "dcqcn-fw", "hpcc", "swift", "timely", "nscc", "eqds"} {
		t.Run(cc, func(t *testing.T) {
			s, err := DefaultScenario()
			require.NoError(t, err)
			s.Topology.Leaves, s.Topology.Spines, s.Topology.HostsPerLeaf = 1, 1, 8
			s.Switch.ECN = &ECNSpec{KminBytes: 20000, KmaxBytes: 100000, Pmax: 0.2}
			s.NIC.CC = cc
			s.Workload = ScenarioWorkload{Kind: "incast", Senders: 7, Receiver: 7, Bytes: 256 << 10}
			r, err := NewRun(s)
			require.NoError(t, err)
			require.NoError(t, r.Complete(context.Background(), 10*rtlmodel.Microsecond, 0, nil))
			require.Equal(t, len(r.Flows), r.Done())
			var ce, sent, received uint64
			for _, m := range r.Cluster.Engine.Stats().All() {
				c, ok := m.(*rtlmodel.Counter)
				if !ok || !strings.HasPrefix(m.Name(), "nic") {
					continue
				}
				switch {
				case strings.HasSuffix(m.Name(), "/rx_ce"):
					ce += c.Value()
				case strings.HasSuffix(m.Name(), "/cnp_sent"):
					sent += c.Value()
				case strings.HasSuffix(m.Name(), "/cnp_received"):
					received += c.Value()
				}
			}
			require.Positive(t, ce, "the incast marks packets")
			if strings.HasPrefix(cc, "dcqcn") {
				require.Positive(t, sent, "a DCQCN receiver notifies its senders")
				require.Equal(t, sent, received)
				return
			}
			require.Zero(t, sent, "CNPs that no %s sender reads", cc)
		})
	}
}
