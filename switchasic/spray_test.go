package switchasic

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSprayingEvensTheLoad(t *testing.T) {
	// The 16 flows of the collision test, each now changing its 14-bit
	// RoCEv2 source port entropy per packet (FACTS 7 [R7]). 2^19 packets
	// over 64 links: 8192 per link, binomial sigma 90 (1.1 %), so the
	// busiest of 64 links sits about 2.5 sigma (3 %) above the mean.
	const flows, pkts = 16, 1 << 15
	tests := []struct {
		name    string
		mode    LBMode
		entropy func(r *rtlmodel.RNG, i int) uint16
		limit   float64
	}{
		{"random entropy per packet", PerPacketEntropy, func(r *rtlmodel.RNG, _ int) uint16 { return uint16(r.Intn(1 << 14)) }, 1.05},
		{"entropy cycling through 2^14 values", PerPacketEntropy, func(_ *rtlmodel.RNG, i int) uint16 { return uint16(i % (1 << 14)) }, 1.05},
		{"round robin", RoundRobin, func(*rtlmodel.RNG, int) uint16 { return 0 }, 1.0},
		{"random", Random, func(*rtlmodel.RNG, int) uint16 { return 0 }, 1.05},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var worst, sum float64
			const seeds = 4
			for s := range uint64(seeds) {
				cfg := DefaultECMPConfig()
				cfg.Seed = uint32(s * 0x9E3779B1)
				b, g := uplinkBalancer(t, tc.mode, cfg, s)
				rng := rtlmodel.NewRNG(s, "spray")
				keys := roceFlows(rng, flows)
				load := make([]uint64, lbUplinks)
				for i := range pkts {
					for f := range keys {
						keys[f].SrcPort = 0xC000 | tc.entropy(rng, i)
						load[b.Pick(g, &keys[f], 0)]++
					}
				}
				r := loadStats(load)
				worst, sum = max(worst, r), sum+r
			}
			t.Logf("%s: 16 flows x %d packets over 64 uplinks, %d seeds: max/mean mean %.4f, worst %.4f", tc.name, pkts, seeds, sum/seeds, worst)
			assert.LessOrEqual(t, worst, tc.limit)
		})
	}
}

func TestEntropySprayIgnoresAddresses(t *testing.T) {
	// Two flows between different hosts with the same entropy take the same
	// member in PerPacketEntropy mode, and the UET entropy field counts too.
	b, g := uplinkBalancer(t, PerPacketEntropy, DefaultECMPConfig(), 1)
	keys := roceFlows(rtlmodel.NewRNG(1, "spray-addr"), 2)
	keys[1].SrcPort = keys[0].SrcPort
	assert.Equal(t, b.Pick(g, &keys[0], 0), b.Pick(g, &keys[1], 0))
	seen := map[int]bool{}
	for e := range 256 {
		keys[0].Entropy = uint16(e)
		seen[b.Pick(g, &keys[0], 0)] = true
	}
	assert.Greater(t, len(seen), 32, "the entropy field spreads packets")

	short, err := packet.NewECMPHasher(packet.ECMPConfig{Fields: packet.FieldProtocol, Func: packet.HashToeplitz, ToeplitzKey: make([]byte, 6)})
	require.NoError(t, err)
	assert.Panics(t, func() { NewEntropySprayStrategy(short) }, "a key too short for the entropy fields")
}
