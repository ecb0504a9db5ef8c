package fabric

import (
	"fmt"
	"testing"

	"github.com/fabricmodel/fabricmodel/nic400g"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/switchasic"
	"github.com/stretchr/testify/require"
)

func topoNIC(i int) nic400g.Config { return nic400g.DefaultConfig(uint32(i)) }

// topoRun posts each flow as one RDMA WRITE on its own QP pair at its
// start time (dependencies are not followed) and runs the cluster to the
// end; it returns the bytes the responder completed per flow.
func topoRun(t *testing.T, c *Cluster, flows []Flow) []uint64 {
	t.Helper()
	done := make([]uint64, len(flows))
	bySrc := map[int][]nic400g.WorkRequest{}
	for _, f := range flows {
		require.Empty(t, f.After)
		bySrc[f.Src] = append(bySrc[f.Src], nic400g.WorkRequest{QP: uint32(f.ID + 1), Dst: uint32(f.Dst),
			DestQP: uint32(f.ID + 1), Bytes: f.Bytes, Posted: f.Start})
	}
	for _, n := range c.NICs {
		n.OnComplete = func(x nic400g.Completion) {
			if x.Responder {
				done[x.QP-1] += x.Bytes
			}
		}
	}
	for src := range c.NICs {
		if wrs := bySrc[src]; len(wrs) > 0 {
			addPoster(t, c.Engine, c.NICs[src], c.NICs[src].Host(), wrs)
		}
	}
	require.NoError(t, c.Engine.Run(rtlmodel.Forever))
	return done
}

// topoPermutation runs a permutation of 256 KB flows within each plane
// and checks every byte arrives.
func topoPermutation(t *testing.T, cfg TopologyConfig) *Cluster {
	t.Helper()
	c, err := Build(cfg, topoNIC, rtlmodel.Options{Seed: 1})
	require.NoError(t, err)
	var jobs [][]Flow
	for _, plane := range cfg.Planes() {
		f, err := Permutation(plane, 256<<10, rtlmodel.Microsecond, 5)
		require.NoError(t, err)
		jobs = append(jobs, f)
	}
	flows := Combine(jobs...)
	require.NoError(t, cfg.CheckFlows(flows))
	done := topoRun(t, c, flows)
	for i, f := range flows {
		require.Equal(t, f.Bytes, done[i], "flow %d from %d to %d", i, f.Src, f.Dst)
	}
	require.Zero(t, counterSum(c.Engine, "drop_no_route"))
	return c
}

// The k=4 fat tree (16 hosts, FACTS 5.4 [R54]) carries a permutation.
func TestFatTreeK4CarriesAPermutation(t *testing.T) {
	c := topoPermutation(t, TopologyConfig{Kind: KindFatTree, K: 4, Tier2CableMillimetres: 50_000})
	require.Len(t, c.NICs, 16)
	require.Len(t, c.Leaves, 8)
	require.Len(t, c.Spines, 8)
	require.Len(t, c.Cores, 4)
	for _, sw := range c.Switches() {
		require.Equal(t, 4, sw.Config().Plan.NumPorts(), "each switch has only the ports it uses")
	}
	require.Equal(t, uint64(50_000), c.Spines[0].NeighbourWire(2).CableMillimetres, "aggregation-to-core cable")
	require.Equal(t, uint64(2000), c.Spines[0].NeighbourWire(0).CableMillimetres, "template cable below")
}

// Two rails of 2x2 leaf-spine planes: NIC r of each of 4 servers on plane
// r (FACTS 5.4 [R55]); a permutation inside each plane is delivered.
func TestRailsCarryAPermutationPerPlane(t *testing.T) {
	cfg := TopologyConfig{Kind: KindRails, Rails: 2, Leaves: 2, Spines: 2, HostsPerLeaf: 2}
	c := topoPermutation(t, cfg)
	require.Len(t, c.NICs, 8)
	require.Len(t, c.Leaves, 4)
	require.Equal(t, 2, c.Planes)
	require.Equal(t, [][]int{{0, 2, 4, 6}, {1, 3, 5, 7}}, cfg.Planes())
	require.ErrorContains(t, cfg.CheckFlows([]Flow{{Src: 0, Dst: 3, Bytes: 1}}), "from rail 0 (endpoint 0) to rail 1 (endpoint 3)")
	// Plane 0 has no route to plane 1's NICs.
	_, ok := c.Leaves[0].Forwarding().Lookup(1)
	require.False(t, ok)
	_, ok = c.Leaves[0].Forwarding().Lookup(4)
	require.True(t, ok)
}

// A 2:1 oversubscribed leaf-spine (6 hosts, 3 uplinks per leaf) with three
// parallel links to its spine carries a permutation.
func TestOversubscribedLeafSpineCarriesAPermutation(t *testing.T) {
	cfg := TopologyConfig{Kind: KindLeafSpine, Leaves: 3, Spines: 1, LinksPerSpine: 3, HostsPerLeaf: 6,
		Tier1CableMillimetres: 10_000}
	p, err := NewAddressPlan(cfg)
	require.NoError(t, err)
	require.Equal(t, 2.0, p.Oversubscription)
	require.Equal(t, uint64(9), p.MaxPaths, "3 links up times 3 links down")
	c := topoPermutation(t, cfg)
	require.Equal(t, 9, c.Leaves[0].Config().Plan.NumPorts())
	require.Equal(t, 9, c.Spines[0].Config().Plan.NumPorts())
}

// The built tables are the shape's: every switch sends every endpoint to
// the ports the address plan walked.
func TestBuiltTablesMatchTheShape(t *testing.T) {
	for _, cfg := range []TopologyConfig{
		{Kind: KindFatTree, K: 4, HostsPerLeaf: 3},
		{Kind: KindRails, Rails: 3, Leaves: 2, Spines: 2, HostsPerLeaf: 2, LinksPerSpine: 2},
	} {
		c, err := Build(cfg, topoNIC, rtlmodel.Options{Seed: 1})
		require.NoError(t, err)
		s := newShape(cfg)
		for sw, x := range c.Switches() {
			for d := 0; d < cfg.Endpoints(); d++ {
				leaf, port := s.locate(d)
				g := port
				if leaf != sw {
					g = s.route(sw, leaf)
				}
				got, ok := x.Forwarding().Lookup(uint32(d))
				require.Equal(t, g >= 0, ok)
				if ok {
					var want []int
					for _, m := range s.groups[sw][g] {
						want = append(want, int(m))
					}
					require.Equal(t, want, x.Forwarding().Members(got))
				}
			}
		}
	}
}

func TestTopologyValidateNamesTheField(t *testing.T) {
	cases := []struct {
		cfg  TopologyConfig
		want string
	}{
		{TopologyConfig{Kind: "torus"}, `kind "torus"`},
		{TopologyConfig{Kind: KindFatTree, K: 5}, "k 5"},
		{TopologyConfig{Kind: KindFatTree, K: 4, Leaves: 2}, "leaves 2: kind fattree has no leaves (a key of kind leafspine and rails)"},
		{TopologyConfig{Kind: KindFatTree, K: 4, LinksPerSpine: 2}, "links_per_spine 2: kind fattree has no links_per_spine"},
		{TopologyConfig{Kind: KindLeafSpine, Leaves: 2, Spines: 2, HostsPerLeaf: 2, K: 8}, "k 8: kind leafspine has no k (a key of kind fattree)"},
		{TopologyConfig{Kind: KindLeafSpine, Leaves: 2, Spines: 2, HostsPerLeaf: 2, Rails: 3}, "rails 3: kind leafspine has no rails (a key of kind rails)"},
		{TopologyConfig{Kind: KindLeafSpine, Leaves: 2, Spines: 2, HostsPerLeaf: 2, Tier2CableMillimetres: 5}, "tier2_cable_mm 5: kind leafspine has no tier2_cable_mm"},
		{TopologyConfig{Kind: KindRails, Leaves: 2, Spines: 2, HostsPerLeaf: 2, Rails: 2, K: 4}, "k 4: kind rails has no k"},
		// counts that would overflow the products of the port and
		// endpoint checks are bounded on their own first
		{TopologyConfig{Kind: KindRails, Leaves: 2, Spines: 2, HostsPerLeaf: 2, Rails: 1 << 62}, "rails 4611686018427387904: it must be 1 to 131072"},
		{TopologyConfig{Kind: KindLeafSpine, Leaves: 2, Spines: 1 << 62, HostsPerLeaf: 2, LinksPerSpine: 4}, "spines 4611686018427387904: it must be 1 to 128"},
		{TopologyConfig{Kind: KindLeafSpine, Leaves: 1 << 62, Spines: 2, HostsPerLeaf: 2, LinksPerSpine: 4}, "leaves 4611686018427387904: it must be 1 to 128"},
		{TopologyConfig{Kind: KindLeafSpine, Leaves: 2, Spines: 2, HostsPerLeaf: 2, LinksPerSpine: 1 << 62}, "links_per_spine 4611686018427387904: it must be 0 (one link) to 128"},
		{TopologyConfig{Kind: KindLeafSpine, Leaves: 2, Spines: 2, HostsPerLeaf: 1 << 62}, "hosts_per_leaf 4611686018427387904: it must be 1 to 128"},
		{TopologyConfig{Kind: KindFatTree, K: 4, HostsPerLeaf: 1 << 62}, "hosts_per_leaf 4611686018427387904: it must be 0 (k/2) to 128"},
		{TopologyConfig{Kind: KindFatTree, K: 1 << 62}, "a leaf switch needs 4611686018427387904 ports"},
		// the products: endpoints, switches and switch ports
		{TopologyConfig{Kind: KindRails, Leaves: 128, Spines: 1, HostsPerLeaf: 127, Rails: 9}, "146304 endpoints"},
		{TopologyConfig{Kind: KindRails, Leaves: 1, Spines: 1, HostsPerLeaf: 1, Rails: 40000}, "80000 switches; the model builds at most 65536"},
		{TopologyConfig{Kind: KindFatTree, K: 128, HostsPerLeaf: 1}, "2105344 switch ports; the model builds at most 1048576"},
		{TopologyConfig{Kind: KindLeafSpine, Spines: 1, HostsPerLeaf: 1}, "leaves 0"},
		{TopologyConfig{Kind: KindRails, Leaves: 1, Spines: 1, HostsPerLeaf: 1}, "rails 0"},
		{TopologyConfig{Kind: KindLeafSpine, Leaves: 1, Spines: 1, HostsPerLeaf: 1, PortMode: "3x7G"}, "port_mode"},
		{TopologyConfig{Kind: KindLeafSpine, Leaves: 1, Spines: 1, HostsPerLeaf: 1, Radix: 300}, "radix 300"},
		{TopologyConfig{Kind: KindLeafSpine, Leaves: 2, Spines: 4, HostsPerLeaf: 8, Radix: 8}, "a leaf switch needs 12 ports, over the radix of 8"},
		{TopologyConfig{Kind: KindFatTree, K: 130}, "a leaf switch needs 130 ports, over the radix of 128"},
		{TopologyConfig{Kind: KindLeafSpine, Leaves: 1, Spines: 1, HostsPerLeaf: 1, LinksPerSpine: -1}, "links_per_spine -1"},
	}
	for _, c := range cases {
		require.ErrorContains(t, c.cfg.Validate(), c.want)
		_, err := Build(c.cfg, topoNIC, rtlmodel.Options{})
		require.ErrorContains(t, err, c.want)
	}
}

// A scenario's topology key that its kind does not take, or a count
// whose products would overflow, is reported at the key's line.
func TestTopologyErrorsCarryTheKeysLine(t *testing.T) {
	for _, c := range []struct {
		topo string
		line int
		want string
	}{
		{"  kind: leafspine\n  leaves: 2\n  spines: 2\n  hosts_per_leaf: 2\n  k: 8\n", 8, "topology.k 8: kind leafspine has no k"},
		{"  kind: leafspine\n  leaves: 2\n  spines: 2\n  rails: 3\n  hosts_per_leaf: 2\n", 7, "topology.rails 3: kind leafspine has no rails"},
		{"  kind: rails\n  leaves: 2\n  spines: 2\n  hosts_per_leaf: 2\n  rails: 4611686018427387904\n", 8, "topology.rails 4611686018427387904: it must be 1 to 131072"},
		{"  kind: leafspine\n  leaves: 2\n  spines: 4611686018427387904\n  links_per_spine: 4\n  hosts_per_leaf: 2\n", 6, "topology.spines 4611686018427387904: it must be 1 to 128"},
	} {
		_, err := ParseScenario("s.yaml", []byte("name: x\nseed: 1\ntopology:\n"+c.topo+"workload:\n  kind: permutation\n  bytes: 1000\n"))
		require.ErrorContains(t, err, fmt.Sprintf("s.yaml:%d: %s", c.line, c.want))
	}
}

// Every standard port mode builds and carries traffic: the NICs take the
// lane width of their leaf port (FACTS 4).
func TestFatTreeInEveryPortMode(t *testing.T) {
	for _, m := range []string{"64x800G", "256x200G", "512x100G"} {
		t.Run(m, func(t *testing.T) {
			c := topoPermutation(t, TopologyConfig{Kind: KindFatTree, K: 4, PortMode: m})
			mode, err := switchasic.ParsePortMode(m)
			require.NoError(t, err)
			require.Equal(t, mode.Lanes, c.Cores[0].Config().Plan.Port(3).Lanes.Lanes())
		})
	}
}

// BenchmarkBuildFatTreeK16 builds the 1024-host fat tree (320 switches)
// with its NICs and tables.
func BenchmarkBuildFatTreeK16(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Build(TopologyConfig{Kind: KindFatTree, K: 16}, topoNIC, rtlmodel.Options{Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
