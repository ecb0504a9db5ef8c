package switchasic

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lbUplinks is the width of the ECMP group in the collision tests: 64
// uplinks (issue 5 "What it must show").
const lbUplinks = 64

// roceFlows returns n RoCEv2 flows between distinct hosts: IPv4, UDP
// destination port 4791, and a random 14-bit source port entropy in
// 0xC000-0xFFFF (FACTS 1.1, FACTS 7 [R7]).
func roceFlows(rng *rtlmodel.RNG, n int) []packet.FlowKey {
	flows := make([]packet.FlowKey, n)
	for i := range flows {
		k := &flows[i]
		k.SetIPv4([4]byte{10, 0, byte(i >> 8), byte(i + 1)}, [4]byte{10, 1, byte(rng.Intn(256)), byte(rng.Intn(256))})
		k.Protocol = 17
		k.SrcPort = 0xC000 | uint16(rng.Intn(1<<14))
		k.DstPort = 4791
	}
	return flows
}

// uplinkBalancer returns a balancer over one group of lbUplinks ports.
func uplinkBalancer(t testing.TB, mode LBMode, cfg packet.ECMPConfig, seed uint64) (*Balancer, int) {
	t.Helper()
	ft := NewForwardingTable(1024)
	g, err := ft.AddGroup(portRange(0, lbUplinks))
	require.NoError(t, err)
	h, err := packet.NewECMPHasher(cfg)
	require.NoError(t, err)
	return NewBalancer(mode, ft, h, seed, DLBConfig{}), g
}

// loadStats returns max link load / mean link load over all links.
func loadStats(load []uint64) (maxOverMean float64) {
	var sum, mx uint64
	for _, l := range load {
		sum += l
		mx = max(mx, l)
	}
	return float64(mx) * float64(len(load)) / float64(sum)
}

func TestECMPPerFlowCollisions(t *testing.T) {
	// 16 equal large flows hashed over 64 uplinks. With perfect placement
	// each flow has a link to itself; a hash puts two or more on one link
	// with probability 1 - 64!/(48! 64^16) = 0.87 (the birthday bound), and that
	// link then carries twice its share. Max/mean is over all 64 links
	// (mean 16/64 of a flow), so one flow per link already gives 4 and a
	// two-flow collision 8; the flows on the busiest link is the collision
	// factor against the ideal.
	const flows, pkts, seeds = 16, 1000, 32
	cfg := DefaultECMPConfig()
	var sumRatio, sumFactor float64
	collided := 0
	for s := range uint64(seeds) {
		cfg.Seed = uint32(s * 0x9E3779B1)
		b, g := uplinkBalancer(t, PerFlow, cfg, s)
		keys := roceFlows(rtlmodel.NewRNG(s, "ecmp-collisions"), flows)
		load := make([]uint64, lbUplinks)
		flowsOn := make([]int, lbUplinks)
		for i := range keys {
			first := b.Pick(g, &keys[i], 0)
			flowsOn[first]++
			for range pkts {
				p := b.Pick(g, &keys[i], 0)
				require.Equal(t, first, p, "per-flow ECMP keeps a flow on one link")
				load[p]++
			}
		}
		ratio := loadStats(load)
		factor := 0
		for _, n := range flowsOn {
			factor = max(factor, n)
		}
		if factor >= 2 {
			collided++
		}
		sumRatio += ratio
		sumFactor += float64(factor)
		assert.GreaterOrEqual(t, ratio, 2.0, "seed %d", s)
		if s < 4 {
			t.Logf("seed %d: max/mean %.2f, busiest link carries %d flows", s, ratio, factor)
		}
	}
	meanRatio, meanFactor := sumRatio/seeds, sumFactor/seeds
	t.Logf("16 flows over 64 uplinks, %d seeds: mean max/mean %.2f, mean flows on the busiest link %.2f, seeds with a collision %d/%d",
		seeds, meanRatio, meanFactor, collided, seeds)
	assert.GreaterOrEqual(t, meanRatio, 6.0, "collisions double the busiest link for most seeds")
	assert.GreaterOrEqual(t, collided, seeds/2, "a collision for the typical seed")
}
