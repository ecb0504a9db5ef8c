package switchasic

import (
	"fmt"
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// uplinkLoads sends 16 large flows from ports 0-15 to an endpoint routed
// over an ECMP group of the 64 ports 64-127 and returns the frames each
// uplink carried.
func uplinkLoads(t *testing.T, mode LBMode, perFlow int, entropyPerPacket bool, seed uint64) []int {
	cfg := DefaultConfig()
	cfg.LB = mode
	cfg.Seed = seed
	r := newRig(t, cfg, 128, rtlmodel.Options{Seed: seed})
	up := make([]int, 64)
	for i := range up {
		up[i] = 64 + i
	}
	g, err := r.sw.Forwarding().AddGroup(up)
	require.NoError(t, err)
	const far = 100000
	require.NoError(t, r.sw.Forwarding().SetRoute(far, g))
	for i := 0; i < 16; i++ {
		hs := r.hosts[i]
		hs.payload, hs.total = 1024, perFlow
		hs.entropyPerPacket = entropyPerPacket
		hs.id = 1000 + i*7919 // distinct flow addresses
		hs.entropy = uint16(rtlmodel.NewRNG(seed, fmt.Sprintf("flow%d", i)).Uint64n(1 << 14))
		hs.dst = func(*host, int) uint32 { return far }
	}
	require.NoError(t, r.e.Run(rtlmodel.Forever))
	loads := make([]int, 64)
	total := 0
	for i := range loads {
		loads[i] = r.hosts[64+i].received
		total += loads[i]
	}
	require.Equal(t, 16*perFlow, total)
	return loads
}

func maxOverMean(loads []int) float64 {
	mx, sum := 0, 0
	for _, l := range loads {
		mx = max(mx, l)
		sum += l
	}
	return float64(mx) / (float64(sum) / float64(len(loads)))
}

func TestECMPCollisionsAndSpraying(t *testing.T) {
	// Per-flow ECMP: 16 flows over 64 links; a perfect spread puts one
	// flow per link (max/mean 4, as 48 links stay idle); collisions put
	// two or more on one. Each seed draws other source-port entropies
	// (reseeding a CRC hash alone cannot change which flows collide: a CRC
	// seed XORs every hash of equal-length keys with one constant).
	collided := 0
	var sum float64
	for seed := uint64(1); seed <= 5; seed++ {
		loads := uplinkLoads(t, PerFlow, 200, false, seed)
		m := maxOverMean(loads)
		sum += m
		if m >= 8 {
			collided++
		}
		t.Logf("per-flow ECMP, seed %d: max/mean %.2f (flows on the busiest link: %.0f)", seed, m, m/4)
	}
	t.Logf("per-flow ECMP: mean max/mean over 5 seeds %.2f; %d of 5 seeds put two or more flows on one link", sum/5, collided)
	require.GreaterOrEqual(t, collided, 3, "16 of 64 with a hash collides most of the time (birthday bound: 87%)")

	rr := maxOverMean(uplinkLoads(t, RoundRobin, 400, false, 1))
	t.Logf("per-packet round-robin spraying: max/mean %.4f", rr)
	require.Less(t, rr, 1.05)
	ent := maxOverMean(uplinkLoads(t, PerPacketEntropy, 1600, true, 1))
	t.Logf("per-packet entropy spraying (random entropy per packet): max/mean %.4f", ent)
	require.Less(t, ent, 1.15)
}
