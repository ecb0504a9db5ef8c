package switchasic

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRoundRobinExact(t *testing.T) {
	ft := NewForwardingTable(16)
	g0, err := ft.AddGroup([]int{10, 11, 12, 13, 14})
	require.NoError(t, err)
	g1, err := ft.AddGroup([]int{20, 21, 22})
	require.NoError(t, err)
	b := NewBalancer(RoundRobin, ft, nil, 0, DLBConfig{})
	var k packet.FlowKey
	// Interleaved groups keep separate pointers; each member of each group
	// gets exactly its share, in member order.
	count := map[int]int{}
	for i := range 15000 {
		want0 := 10 + i%5
		assert.Equal(t, want0, b.Pick(g0, &k, 0))
		count[want0]++
		if i < 3000 {
			assert.Equal(t, 20+i%3, b.Pick(g1, &k, 0))
		}
	}
	for p := 10; p < 15; p++ {
		assert.Equal(t, 3000, count[p])
	}
	// After a group shrinks below its pointer, the pointer restarts at 0.
	for range 4 {
		b.Pick(g0, &k, 0)
	}
	require.NoError(t, ft.SetMembers(g0, []int{30, 31}))
	assert.Equal(t, []int{30, 31, 30}, []int{b.Pick(g0, &k, 0), b.Pick(g0, &k, 0), b.Pick(g0, &k, 0)})
	// A group added after the balancer was built is served too.
	g2, err := ft.AddGroup([]int{40, 41})
	require.NoError(t, err)
	assert.Equal(t, []int{40, 41, 40}, []int{b.Pick(g2, &k, 0), b.Pick(g2, &k, 0), b.Pick(g2, &k, 0)})
}

func TestRandomIsSeededAndUniform(t *testing.T) {
	ft := NewForwardingTable(1)
	g, err := ft.AddGroup(portRange(0, 8))
	require.NoError(t, err)
	var k packet.FlowKey
	run := func(seed uint64) []int {
		b := NewBalancer(Random, ft, nil, seed, DLBConfig{})
		out := make([]int, 80000)
		for i := range out {
			out[i] = b.Pick(g, &k, rtlmodel.Time(i))
		}
		return out
	}
	a, a2, c := run(7), run(7), run(8)
	assert.Equal(t, a, a2, "same seed, same choices")
	assert.NotEqual(t, a, c, "another seed, other choices")
	count := make([]int, 8)
	for _, p := range a {
		count[p]++
	}
	for p, n := range count {
		// 10,000 expected, sigma 94: 5 sigma is 470.
		assert.InDelta(t, 10000, n, 470, "port %d", p)
	}
}

func TestParseLBMode(t *testing.T) {
	for _, m := range []LBMode{PerFlow, PerPacketEntropy, RoundRobin, Random, DLB} {
		got, err := ParseLBMode(m.String())
		require.NoError(t, err)
		assert.Equal(t, m, got)
	}
	got, err := ParseLBMode("DLB")
	require.NoError(t, err)
	assert.Equal(t, DLB, got)
	_, err = ParseLBMode("adaptive")
	assert.ErrorContains(t, err, `unknown load-balancing mode "adaptive"`)
	assert.Equal(t, "lbmode(9)", LBMode(9).String())
	ft := NewForwardingTable(1)
	assert.Panics(t, func() { NewBalancer(LBMode(9), ft, nil, 0, DLBConfig{}) })
	assert.Panics(t, func() { NewBalancer(PerFlow, nil, nil, 0, DLBConfig{}) })
	assert.Panics(t, func() { NewBalancer(DLB, ft, nil, 0, DLBConfig{Bands: 300}) })
}
