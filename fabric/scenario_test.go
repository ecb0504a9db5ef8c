package fabric

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

func TestScenarioFileIsStrict(t *testing.T) {
	_, err := ParseScenario("s.yaml", []byte("name: x\ntopology:\n  kind: leafspine\n  leaves: 2\n  spines: 1\n  hosts_per_leaf: 2\nworkload:\n  kind: incast\n  bytes: 10\n  sendrs: 2\n"))
	require.ErrorContains(t, err, "s.yaml:10: workload.sendrs: unknown key")
	_, err = ParseScenario("s.yaml", []byte("name: x\ntopology:\n  kind: ring\nworkload:\n  kind: incast\n  bytes: 1\n"))
	require.ErrorContains(t, err, "topology")
	_, err = ParseScenario("s.yaml", []byte("name: x\ntopology:\n  kind: leafspine\n  leaves: 2\n  spines: 1\n  hosts_per_leaf: 2\nworkload:\n  kind: gossip\n  bytes: 1\n"))
	require.ErrorContains(t, err, `workload.kind "gossip"`)
}

func runScenario(t *testing.T, s *Scenario) *Results { return runScenarioMode(t, s, EngineMode{}) }

func runScenarioMode(t *testing.T, s *Scenario, mode EngineMode) *Results {
	r, err := NewRunMode(s, mode)
	require.NoError(t, err)
	for until := 10 * rtlmodel.Microsecond; ; until += 10 * rtlmodel.Microsecond {
		done, err := r.Step(until)
		require.NoError(t, err)
		if done {
			break
		}
		// a run that stalls fails here instead of running on
		require.Less(t, until, 2*rtlmodel.Millisecond, "%s: %d of %d flows complete", s.Name, r.Done(), len(r.Flows))
	}
	return r.Results()
}

// The embedded default scenario runs to completion, and the same scenario
// and seed give byte-identical JSON results.
func TestDefaultScenarioIsDeterministic(t *testing.T) {
	var out [2][]byte
	for i := range out {
		s, err := DefaultScenario()
		require.NoError(t, err)
		res := runScenario(t, s)
		require.Equal(t, res.Flows, res.Completed)
		var b bytes.Buffer
		require.NoError(t, json.NewEncoder(&b).Encode(res))
		out[i] = b.Bytes()
	}
	require.Equal(t, string(out[0]), string(out[1]))
	s, _ := DefaultScenario()
	s.Seed = 2
	var b bytes.Buffer
	require.NoError(t, json.NewEncoder(&b).Encode(runScenario(t, s)))
	require.NotEqual(t, string(out[0]), b.String(), "another seed, another permutation")
}

// Idle skipping and windows are exact on a whole fabric: evaluating every
// component at every edge, the components of an edge in a shuffled order,
// or every device edge by edge in one partition instead of each for a
// window of the lookahead, gives the same JSON results as the plain run. Every NIC, switch block and PHY must
// say truly when it next has work for this to hold: a NIC that slept while
// it could send at the next edge made the default scenario differ.
func TestScenarioIdleSkipEqualsAlwaysTick(t *testing.T) {
	cases := map[string]func(s *Scenario){
		"default": func(s *Scenario) {},
		"eqds-spray": func(s *Scenario) {
			s.Topology.Leaves, s.Topology.Spines, s.Topology.HostsPerLeaf = 2, 2, 4
			s.Workload.Bytes = 256 << 10
			s.NIC.CC, s.NIC.Paths = "eqds", "spray"
		},
		// flows that wait for flows of other hosts
		"hd-allreduce": func(s *Scenario) {
			s.Topology.Leaves, s.Topology.Spines, s.Topology.HostsPerLeaf = 4, 2, 4
			s.Workload.Kind, s.Workload.Bytes = "hd_allreduce", 256<<10
		},
		// later messages on a queue pair under receiver credit: a
		// message's first packet must be able to ask for its credit
		"eqds-ring-allreduce": func(s *Scenario) {
			s.Topology.Leaves, s.Topology.Spines, s.Topology.HostsPerLeaf = 2, 2, 4
			s.NIC.CC = "eqds"
			s.Workload.Kind, s.Workload.Bytes = "ring_allreduce", 128<<10
		},
		// UET frames, which the switch routes by IP and UDP alone, sprayed
		// and trimmed (77 trims)
		"uet-trimming": func(s *Scenario) {
			s.Topology.Leaves, s.Topology.Spines, s.Topology.HostsPerLeaf = 2, 2, 4
			s.NIC.CC, s.NIC.Stack, s.NIC.Paths = "eqds", "uet", "spray"
			s.Switch.LB, s.Switch.Trimming, s.Switch.PFCClasses, s.Switch.BufferBytes = "spray", true, nil, 300000
			s.Workload = ScenarioWorkload{Kind: "incast", Senders: 7, Receiver: 0, Bytes: 256 << 10}
		},
		// READ responses paced by the requester's pulls, into a lossy
		// buffer (116 drops, 5 reads issued again, 336 pulls)
		"eqds-read-incast": func(s *Scenario) {
			s.Topology.Leaves, s.Topology.Spines, s.Topology.HostsPerLeaf = 2, 1, 4
			s.NIC.CC, s.NIC.MTU = "eqds", 4096
			s.Switch.PFCClasses, s.Switch.BufferBytes = nil, 200000
			s.Workload = ScenarioWorkload{Kind: "incast", Senders: 6, Receiver: 0, Bytes: 256 << 10, Op: "read"}
		},
		// DLB, whose ingress pipes are components of their own (a wire's
		// lookahead without the ingress pipeline), around an uplink with
		// half its lanes down
		"dlb-degraded": func(s *Scenario) {
			s.Topology.Leaves, s.Topology.Spines, s.Topology.HostsPerLeaf = 2, 2, 4
			s.Topology.DegradedUplink = "0/4/2"
			s.Switch.LB = "dlb"
			s.Workload.Bytes = 256 << 10
		},
		// three tiers of switches
		"fattree": func(s *Scenario) {
			s.Topology = ScenarioTopology{TopologyConfig: TopologyConfig{Kind: KindFatTree, K: 4}}
			s.Workload.Bytes = 256 << 10
		},
		// flows that start while others run
		"background": func(s *Scenario) {
			s.Topology.Leaves, s.Topology.Spines, s.Topology.HostsPerLeaf = 4, 2, 4
			s.NIC.CC = "hpcc"
			s.Workload = ScenarioWorkload{Kind: "background", Load: 0.5, DurationUS: 30,
				SizeCDF: []CDFPoint{{Bytes: 4096, P: 0.5}, {Bytes: 200000, P: 1}}}
		},
	}
	for name, change := range cases {
		t.Run(name, func(t *testing.T) {
			encode := func(mode EngineMode) string {
				s, err := DefaultScenario()
				require.NoError(t, err)
				change(s)
				res := runScenarioMode(t, s, mode)
				require.Equal(t, res.Flows, res.Completed)
				var b bytes.Buffer
				require.NoError(t, json.NewEncoder(&b).Encode(res))
				return b.String()
			}
			plain := encode(EngineMode{})
			require.Equal(t, plain, encode(EngineMode{AlwaysTick: true}), "always-tick")
			require.Equal(t, plain, encode(EngineMode{ShuffleSeed: 7}), "shuffled evaluation order")
			require.Equal(t, plain, encode(EngineMode{Lockstep: true}), "devices edge by edge in one partition")
		})
	}
}

// A misspelt device value is an error when the file is read, not a
// silent default when the run is built.
func TestScenarioRejectsUnknownDeviceValues(t *testing.T) {
	base := "name: x\ntopology:\n  kind: leafspine\n  leaves: 2\n  spines: 1\n  hosts_per_leaf: 2\nworkload:\n  kind: permutation\n  bytes: 10\n"
	for _, c := range []struct{ extra, want string }{
		{"switch:\n  lb: hashing\n", "hashing"},
		{"switch:\n  pfc_classes: [9]\n", "class 9"},
		{"nic:\n  cc: reno\n", "reno"},
		{"nic:\n  stack: roce_ipv6\n", "roce_ipv6"},
		{"nic:\n  recovery: gobackn\n", "gobackn"},
		{"nic:\n  paths: ecmp\n", "ecmp"},
		// a framing the NIC has and the switch does not forward
		{"nic:\n  stack: ib\n", "forwards Ethernet frames"},
	} {
		_, err := ParseScenario("s.yaml", []byte(base+c.extra))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want an error naming %q", c.extra, err, c.want)
		}
	}
	if _, err := ParseScenario("s.yaml", []byte(base+"nic:\n  cc: hpcc\n  stack: uet\n  recovery: gbn\n  paths: fixed\n")); err != nil {
		t.Errorf("valid NIC keys: %v", err)
	}
}
