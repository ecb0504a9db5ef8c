package fabric

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// Every experiment's run, once quiet, accounts for every frame by its
// counters: each switch took from its ports' links what was sent on them,
// admitted what it took less the PFC frames it obeyed and the frames it
// dropped, sent on its ports what it admitted and the PFC frames it made;
// every frame a switch port or NIC sent reached a switch port or a NIC;
// and every data packet a NIC sent reached a NIC, or a switch dropped it.
// A frame lost between two counters, or counted twice, breaks one of the
// sums. And every packet of every flow was placed in memory once
// (rx_placed, the results' DataPackets), however many times it was
// trimmed, dropped or received.
func TestFabricCountersAccountForEveryFrame(t *testing.T) {
	switchName := regexp.MustCompile(`^((?:rail[0-9]+/)?(?:leaf|spine|edge|agg|core)[0-9]+)/(.*)$`)
	portOrPipe := regexp.MustCompile(`(port|pipe)[0-9]+`)
	nicName := regexp.MustCompile(`^nic[0-9]+`)
	file := func(name string) func(t *testing.T) *Scenario {
		return func(t *testing.T) *Scenario {
			s, err := LoadScenario("../docs/scenarios/" + name + ".yaml")
			require.NoError(t, err)
			return s
		}
	}
	cases := map[string]func(t *testing.T) *Scenario{}
	for _, name := range []string{
		"exp1_permutation_dlb", "exp2_incast_dcqcn", "exp2_incast_eqds", "exp3_lossless_pfc_dcqcn",
		"exp3_lossy_trimming", "exp4_degraded_pathaware", "exp4_degraded_pathaware_roce",
	} {
		cases[name] = file(name)
	}
	// a lossy fabric that drops instead of trimming, a fat tree, rails,
	// background flows under HPCC and a sprayed, trimmed UET all-to-all
	cases["lossy-tail-drop"] = func(t *testing.T) *Scenario {
		s := file("exp3_lossy_trimming")(t)
		s.Switch.Trimming, s.Switch.BufferBytes = false, 1000000
		return s
	}
	cases["fattree"] = func(t *testing.T) *Scenario {
		s, err := DefaultScenario()
		require.NoError(t, err)
		s.Topology = ScenarioTopology{TopologyConfig: TopologyConfig{Kind: KindFatTree, K: 4}}
		s.Workload.Bytes = 256 << 10
		return s
	}
	cases["rails"] = func(t *testing.T) *Scenario {
		s, err := DefaultScenario()
		require.NoError(t, err)
		s.Topology.Kind, s.Topology.Rails, s.Topology.Leaves, s.Topology.Spines, s.Topology.HostsPerLeaf = KindRails, 4, 2, 2, 4
		s.Workload = ScenarioWorkload{Kind: "ring_allreduce", Bytes: 1 << 20}
		return s
	}
	cases["background-hpcc"] = func(t *testing.T) *Scenario {
		s, err := DefaultScenario()
		require.NoError(t, err)
		s.Topology.Leaves, s.Topology.Spines, s.Topology.HostsPerLeaf = 4, 2, 4
		s.NIC.CC = "hpcc"
		s.Workload = ScenarioWorkload{Kind: "background", Load: 0.5, DurationUS: 30,
			SizeCDF: []CDFPoint{{Bytes: 4096, P: 0.5}, {Bytes: 200000, P: 1}}}
		return s
	}
	cases["alltoall-uet-spray"] = func(t *testing.T) *Scenario {
		s, err := DefaultScenario()
		require.NoError(t, err)
		s.Topology.Leaves, s.Topology.Spines, s.Topology.HostsPerLeaf = 2, 2, 4
		s.NIC.CC, s.NIC.Stack, s.NIC.Paths = "eqds", "uet", "spray"
		s.Switch.LB, s.Switch.Trimming, s.Switch.PFCClasses, s.Switch.BufferBytes = "spray", true, nil, 300000
		s.Workload = ScenarioWorkload{Kind: "alltoall", Bytes: 128 << 10}
		return s
	}
	// READs sprayed and taken in order: responses dropped out of order
	// and received twice, reads issued again
	cases["reads-sprayed"] = func(t *testing.T) *Scenario {
		s, err := DefaultScenario()
		require.NoError(t, err)
		s.NIC.Paths, s.Workload.Op, s.Workload.Bytes = "spray", "read", 256<<10
		return s
	}
	for name, scenario := range cases {
		t.Run(name, func(t *testing.T) {
			s := scenario(t)
			r, err := NewRun(s)
			require.NoError(t, err)
			require.NoError(t, r.Complete(t.Context(), 10*rtlmodel.Microsecond, 0, nil))
			sw := map[string]map[string]uint64{} // switch -> counter (ports and pipes summed) -> value
			nic := map[string]uint64{}
			for _, m := range r.Cluster.Engine.Stats().All() {
				c, ok := m.(*rtlmodel.Counter)
				if !ok {
					continue
				}
				if g := switchName.FindStringSubmatch(m.Name()); g != nil {
					key := portOrPipe.ReplaceAllString(g[2], "$1#")
					if sw[g[1]] == nil {
						sw[g[1]] = map[string]uint64{}
					}
					sw[g[1]][key] += c.Value()
				} else if strings.HasPrefix(m.Name(), "nic") {
					nic[nicName.ReplaceAllString(m.Name(), "nic#")] += c.Value()
				}
			}
			require.NotEmpty(t, sw)
			var swRx, swTx, toNICs, swDrops uint64
			for name, k := range sw {
				pipeDrops := k["pipe#/drop_bad_fcs"] + k["pipe#/drop_malformed"] + k["pipe#/drop_no_route"]
				require.Equal(t, k["port#/rx/transfers"], k["pipe#/rx_frames"], "%s: frames its pipes took against those its ports' links delivered", name)
				require.Equal(t, k["pipe#/rx_frames"], k["pipe#/rx_pfc"]+pipeDrops+k["mmu/enqueued"]+k["mmu/dropped"], "%s: frames taken against PFC obeyed, dropped and admitted", name)
				require.Equal(t, k["mmu/enqueued"], k["mmu/dequeued"], "%s: quiet, with packets queued", name)
				require.Equal(t, k["mmu/dequeued"]+k["mmu/pfc_sent"], k["mmu>port#/transfers"], "%s: frames handed to its ports", name)
				require.Equal(t, k["mmu>port#/transfers"], k["port#/tx/frames"], "%s: frames its ports' PHYs sent", name)
				swRx += k["port#/rx/transfers"]
				swTx += k["port#/tx/frames"]
				toNICs += k["port#/wire/transfers"]
				swDrops += pipeDrops + k["mmu/dropped"]
			}
			require.Equal(t, swRx, nic["nic#/phy/frames"]+swTx-toNICs, "frames the switches received against those sent to them")
			require.Positive(t, nic["nic#/tx_data"])
			if swDrops == 0 {
				require.Equal(t, nic["nic#/tx_data"], nic["nic#/rx_data"], "data packets sent against those received")
			} else {
				// a frame a switch dropped may have been an ACK or a CNP
				require.GreaterOrEqual(t, nic["nic#/tx_data"], nic["nic#/rx_data"])
				require.LessOrEqual(t, nic["nic#/tx_data"], nic["nic#/rx_data"]+swDrops, "data packets sent against those received and dropped")
			}
			mtu := uint64(s.nicConfig(0, 1).MTU)
			packets := uint64(0)
			for _, f := range r.Flows {
				packets += max(1, (f.Bytes+mtu-1)/mtu)
			}
			require.Equal(t, packets, nic["nic#/rx_placed"], "packets placed against the flows' packets")
			require.Equal(t, packets, r.Results().DataPackets)
			if name == "exp3_lossy_trimming" || name == "reads-sprayed" {
				require.Greater(t, nic["nic#/rx_data"], packets, "trimmed headers, duplicates and packets dropped out of order are received, not placed")
			}
			if name == "lossy-tail-drop" {
				require.Positive(t, swDrops, "the small buffer drops")
			}
			if name == "rails" {
				require.Contains(t, sw, "rail3/spine1", "the rails' switches are counted")
			}
		})
	}
}
