package switchasic

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// portRange returns ports first..first+n-1.
func portRange(first, n int) []int {
	m := make([]int, n)
	for i := range m {
		m[i] = first + i
	}
	return m
}

func TestForwardingTable131072Endpoints(t *testing.T) {
	ft := NewForwardingTable(DefaultMaxEndpoints)
	require.Equal(t, 131_072, ft.MaxEndpoints())
	// 64 downlink groups of one port each, and one 64-way uplink group.
	for p := range 64 {
		g, err := ft.AddGroup([]int{p})
		require.NoError(t, err)
		require.Equal(t, p, g)
	}
	up, err := ft.AddGroup(portRange(64, 64))
	require.NoError(t, err)
	for dst := uint32(0); dst < DefaultMaxEndpoints; dst++ {
		g := up
		if dst < 64*16 { // 16 local hosts per downlink
			g = int(dst / 16)
		}
		require.NoError(t, ft.SetRoute(dst, g))
	}
	for _, tc := range []struct {
		dst   uint32
		group int
	}{{0, 0}, {15, 0}, {16, 1}, {1023, 63}, {1024, up}, {131_071, up}} {
		g, ok := ft.Lookup(tc.dst)
		assert.True(t, ok)
		assert.Equal(t, tc.group, g, "dst %d", tc.dst)
	}
	assert.Equal(t, portRange(64, 64), ft.Members(up))
	_, ok := ft.Lookup(DefaultMaxEndpoints)
	assert.False(t, ok, "beyond the table")

	// 2 B per destination, 8 B per member, 24 B per group header.
	members := 64 + 64
	assert.Equal(t, 131_072*2+members*8+65*24, ft.MemoryBytes())
	assert.Equal(t, 131_072*16+members*9, ft.HardwareBits())
	t.Logf("131,072 endpoints, 65 groups, %d members: %d B in the model (%d KiB of routes at 2 B each); %d bits = %.1f KiB of SRAM in hardware",
		members, ft.MemoryBytes(), 131_072*2/1024, ft.HardwareBits(), float64(ft.HardwareBits())/8/1024)
}

func TestForwardingTableHoldsRoutesUpToTheHighestRouted(t *testing.T) {
	ft := NewForwardingTable(DefaultMaxEndpoints)
	down, err := ft.AddGroup([]int{0})
	require.NoError(t, err)
	up, err := ft.AddGroup(portRange(32, 32))
	require.NoError(t, err)
	// a switch of a 1024-endpoint fabric: routes for destinations 0 to 1023
	for dst := uint32(0); dst < 1024; dst++ {
		g := up
		if dst < 32 {
			g = down
		}
		require.NoError(t, ft.SetRoute(dst, g))
	}
	groupBytes := (1+32)*8 + 2*24
	assert.Equal(t, 1024*2+groupBytes, ft.MemoryBytes(), "2 KiB of routes, not 256 KiB")
	assert.Equal(t, DefaultMaxEndpoints, ft.MaxEndpoints())
	assert.Equal(t, DefaultMaxEndpoints*RouteEntryBits+(1+32)*MemberEntryBits, ft.HardwareBits(), "the SRAM is the whole table's")
	for _, tc := range []struct {
		dst   uint32
		group int
		ok    bool
	}{{0, down, true}, {31, down, true}, {32, up, true}, {1023, up, true}, {1024, 0, false}, {100_000, 0, false}, {DefaultMaxEndpoints, 0, false}} {
		g, ok := ft.Lookup(tc.dst)
		assert.Equal(t, tc.ok, ok, "dst %d", tc.dst)
		if tc.ok {
			assert.Equal(t, tc.group, g, "dst %d", tc.dst)
		}
	}
	ft.ClearRoute(50_000) // past the routes held: nothing to clear
	assert.Equal(t, 1024*2+groupBytes, ft.MemoryBytes())

	// a route far out grows the array to it at once; those before it stay
	require.NoError(t, ft.SetRoute(DefaultMaxEndpoints-1, down))
	assert.Equal(t, DefaultMaxEndpoints*2+groupBytes, ft.MemoryBytes())
	g, ok := ft.Lookup(DefaultMaxEndpoints - 1)
	assert.True(t, ok)
	assert.Equal(t, down, g)
	g, ok = ft.Lookup(1000)
	assert.True(t, ok)
	assert.Equal(t, up, g)
	_, ok = ft.Lookup(5000)
	assert.False(t, ok, "between the routes: none")
}

func TestForwardingTableErrors(t *testing.T) {
	ft := NewForwardingTable(100)
	_, ok := ft.Lookup(5)
	assert.False(t, ok, "no route yet")
	g, err := ft.AddGroup([]int{1, 2, 2}) // port 2 weighted twice
	require.NoError(t, err)
	assert.Equal(t, []int{1, 2, 2}, ft.Members(g))

	tests := []struct {
		name string
		err  error
		want string
	}{
		{"route beyond table", ft.SetRoute(100, g), "destination 100 beyond the forwarding table of 100 entries"},
		{"route to unknown group", ft.SetRoute(1, 7), "unknown ECMP group 7"},
		{"empty group", fwdErrOf(ft.AddGroup(nil)), "at least one member"},
		{"negative port", fwdErrOf(ft.AddGroup([]int{3, -1})), "member port -1 out of range"},
		{"port beyond 9 bits", fwdErrOf(ft.AddGroup([]int{512})), "member port 512 out of range 0..511"},
		{"too many members", fwdErrOf(ft.AddGroup(make([]int, MaxGroupMembers+1))), "513 members is over the limit of 512"},
		{"set members of unknown group", ft.SetMembers(4, []int{1}), "no ECMP group 4"},
		{"set members empty", ft.SetMembers(g, nil), "at least one member"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Error(t, tc.err)
			assert.Contains(t, tc.err.Error(), tc.want)
		})
	}
	require.NoError(t, ft.SetRoute(99, g))
	got, ok := ft.Lookup(99)
	assert.True(t, ok)
	assert.Equal(t, g, got)
	require.NoError(t, ft.SetMembers(g, []int{7}))
	assert.Equal(t, []int{7}, ft.Members(g))
	assert.Equal(t, 100*16+9, ft.HardwareBits())
	ft.ClearRoute(99)
	ft.ClearRoute(1000)
	_, ok = ft.Lookup(99)
	assert.False(t, ok)
	assert.Panics(t, func() { NewForwardingTable(0) })
}

// fwdErrOf returns the error of a (value, error) pair.
func fwdErrOf(_ int, err error) error { return err }
