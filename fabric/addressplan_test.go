package fabric

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The k=4 fat tree of Al-Fares et al.: 16 hosts, 8 edge, 8 aggregation and
// 4 core switches, 4 paths between pods (FACTS 5.4 [R54]).
func TestAddressPlanFatTreeK4(t *testing.T) {
	p, err := NewAddressPlan(TopologyConfig{Kind: KindFatTree, K: 4})
	require.NoError(t, err)
	require.Equal(t, 16, p.Endpoints)
	require.Equal(t, []int{8, 8, 4}, []int{p.Tiers[0].Switches, p.Tiers[1].Switches, p.Tiers[2].Switches})
	require.Equal(t, 32, p.SwitchLinks)
	require.Equal(t, uint64(2), p.MinPaths)
	require.Equal(t, uint64(4), p.MaxPaths)
	require.Equal(t, 5, p.MaxSwitchHops)
	require.Equal(t, 64, p.LeafPairs)
	require.Equal(t, 1.0, p.Oversubscription)
	for _, tp := range p.Tiers {
		require.Equal(t, 16, tp.MinEntries)
		require.Equal(t, 16, tp.MaxEntries)
		require.Equal(t, 4, tp.Ports)
	}
	require.True(t, p.Fits)
}

// Over 110,000 endpoints (FACTS 5.3, 5.4): a k=80 fat tree of 128,000 hosts
// and 4 rails of 200G leaf-spine planes, 131,072 NICs: every table fits,
// every leaf reaches every endpoint of its plane.
func TestAddressPlanOver110k(t *testing.T) {
	ft, err := NewAddressPlan(TopologyConfig{Kind: KindFatTree, K: 80})
	require.NoError(t, err)
	require.Equal(t, 128000, ft.Endpoints)
	require.Equal(t, "10.1.243.255", ft.LastAddress)
	require.Equal(t, []int{3200, 3200, 1600}, []int{ft.Tiers[0].Switches, ft.Tiers[1].Switches, ft.Tiers[2].Switches})
	require.Equal(t, uint64(1600), ft.MaxPaths)
	require.Equal(t, 3200*3200, ft.LeafPairs)
	require.Equal(t, 128000, ft.DeliveredHosts)
	require.Equal(t, 128000, ft.Tiers[2].MaxEntries)
	require.Equal(t, 40, ft.Tiers[0].MaxGroupSize, "40 uplinks in one group")
	require.True(t, ft.Fits)

	rails, err := NewAddressPlan(TopologyConfig{Kind: KindRails, PortMode: "256x200G", Rails: 4,
		Leaves: 256, Spines: 128, HostsPerLeaf: 128})
	require.NoError(t, err)
	require.Equal(t, 131072, rails.Endpoints)
	require.Equal(t, 4, rails.Planes)
	require.Equal(t, 32768, rails.Tiers[0].MaxEntries, "a plane routes only its own endpoints")
	require.Equal(t, uint64(128), rails.MaxPaths)
	require.Equal(t, 4*256*256, rails.LeafPairs)
	require.True(t, rails.Fits)
}

// Too many endpoints for the 131,072-entry tables, or a switch over its
// radix, is an error that says so.
func TestAddressPlanRejectsOversized(t *testing.T) {
	_, err := NewAddressPlan(TopologyConfig{Kind: KindFatTree, K: 84})
	require.ErrorContains(t, err, "148176 endpoints")
	require.ErrorContains(t, err, "forwarding tables hold 131072")
	_, err = NewAddressPlan(TopologyConfig{Kind: KindLeafSpine, Leaves: 4, Spines: 100, HostsPerLeaf: 64})
	require.ErrorContains(t, err, "a leaf switch needs 164 ports, over the radix of 128")
}

// The walk finds a broken table: an uplink group that points at a host,
// and a leaf whose host entries are swapped.
func TestAddressPlanWalkFindsBrokenRoutes(t *testing.T) {
	cfg := TopologyConfig{Kind: KindFatTree, K: 4}
	s := newShape(cfg)
	s.groups[0][s.h] = []int32{0}
	var p AddressPlan
	require.ErrorContains(t, s.walk(&p, make([]int, s.numSwitches())), "edge0 sends traffic for edge1 to a host")

	s = newShape(cfg)
	s.groups[3][0], s.groups[3][1] = s.groups[3][1], s.groups[3][0]
	require.ErrorContains(t, s.walk(&p, make([]int, s.numSwitches())), "edge3 routes endpoint 6 to ports [1], not its port 0")
}

func TestAddressPlanTierRows(t *testing.T) {
	p, err := NewAddressPlan(TopologyConfig{Kind: KindLeafSpine, Leaves: 4, Spines: 2, HostsPerLeaf: 4})
	require.NoError(t, err)
	require.Equal(t, [][]string{
		{"leaf", "4", "6", "4", "2", "16", "5", "2", "6", "2097206"},
		{"spine", "2", "4", "4", "0", "16", "4", "1", "4", "2097188"},
	}, p.TierRows())
	require.Len(t, TierHeader, len(p.TierRows()[0]))
}

// BenchmarkAddressPlanFatTreeK80 sizes and walks the 128,000-host fat tree.
func BenchmarkAddressPlanFatTreeK80(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := NewAddressPlan(TopologyConfig{Kind: KindFatTree, K: 80}); err != nil {
			b.Fatal(err)
		}
	}
}

// The FACTS 5.4 sizing table from address plans: two tiers hold k²/2 hosts
// and three tiers k³/4 (Al-Fares et al. [R54]); only those within the
// 131,072-entry tables are accepted.
func TestAddressPlanReproducesFactsSizing(t *testing.T) {
	for _, c := range []struct {
		cfg   TopologyConfig
		hosts int
	}{
		{NonBlockingLeafSpine(64, "64x800G"), 2048},
		{NonBlockingLeafSpine(128, "128x400G"), 8192},
		{NonBlockingLeafSpine(256, "256x200G"), 32768},
		{NonBlockingLeafSpine(512, "512x100G"), 131072},
		{TopologyConfig{Kind: KindFatTree, K: 64, PortMode: "64x800G"}, 65536},
		{TopologyConfig{Kind: KindRails, Rails: 8, Leaves: 128, Spines: 64, HostsPerLeaf: 64}, 65536},
	} {
		p, err := NewAddressPlan(c.cfg)
		require.NoError(t, err)
		require.Equal(t, c.hosts, p.Endpoints)
		require.Equal(t, 1.0, p.Oversubscription)
		require.True(t, p.Fits)
	}
	_, err := NewAddressPlan(TopologyConfig{Kind: KindFatTree, K: 128})
	require.ErrorContains(t, err, "524288 endpoints")
}
