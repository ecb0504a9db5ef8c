package switchasic

import (
	"fmt"
	"hash/fnv"
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

func TestEgressShaperLimitsThePortRate(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Shapers = map[int]ShaperConfig{1: {Num: 100_000_000_000, Den: 1, DepthBytes: 8192}}
	r := newRig(t, cfg, 2, rtlmodel.Options{Seed: 1})
	src := r.hosts[0]
	src.total = 400
	src.dst = func(*host, int) uint32 { return 1 }
	var times []rtlmodel.Time
	r.e.Hooks().OnTransfer(func(ev *rtlmodel.TransferEvent) {
		if ev.Link == "sw/port1/wire" {
			times = append(times, ev.Time)
		}
	})
	require.NoError(t, r.e.Run(rtlmodel.Forever))
	require.Len(t, times, 400)
	// after the bucket's first 8 KB, frames of 4158 B leave every 332.64 ns
	// (frame bytes at 100 Gb/s), rounded to the 800 ps pipe clock
	span := times[399] - times[10]
	per := float64(span) / 389
	t.Logf("shaped to 100 Gb/s: one 4158 B frame every %.2f ns (%.3f Gb/s of frame bytes)", per/1000, 4158*8/per*1000)
	require.InDelta(t, 332640, per, 800)
}

func TestDLBSteersNewFlowletsAwayFromACongestedUplink(t *testing.T) {
	share := func(mode LBMode) float64 {
		cfg := DefaultConfig()
		cfg.LB = mode
		cfg.Shapers = map[int]ShaperConfig{2: {Num: 100_000_000_000, Den: 1, DepthBytes: 8192}}
		r := newRig(t, cfg, 4, rtlmodel.Options{Seed: 1})
		g, err := r.sw.Forwarding().AddGroup([]int{2, 3})
		require.NoError(t, err)
		require.NoError(t, r.sw.Forwarding().SetRoute(5000, g))
		hs := r.hosts[0]
		hs.total, hs.payload, hs.entropyPerPacket = 6000, 1024, true
		hs.dst = func(*host, int) uint32 { return 5000 }
		require.NoError(t, r.e.Run(rtlmodel.Forever))
		a, b := r.hosts[2].received, r.hosts[3].received
		require.Equal(t, 6000, a+b)
		return float64(b) / float64(a+b)
	}
	dlb, ecmp := share(DLB), share(PerFlow)
	t.Logf("400 Gb/s of new flows over uplink A (shaped to 100 Gb/s) and B (400 Gb/s): share on B with DLB %.3f, with per-flow hashing %.3f", dlb, ecmp)
	require.InDelta(t, 0.5, ecmp, 0.05, "hashing ignores congestion")
	require.Greater(t, dlb, 0.7, "DLB sends new flowlets to the better uplink")
}

func TestMalformedFramesAreDroppedWithAReason(t *testing.T) {
	r := newRig(t, DefaultConfig(), 2, rtlmodel.Options{Seed: 1})
	src := r.hosts[0]
	src.total = 10
	src.dst = func(*host, int) uint32 { return 1 }
	// corrupt the IPv4 header checksum of the template the host copies
	tmpl := src.header(1, src.entropy)
	tmpl[14+10] ^= 0xFF
	require.NoError(t, r.e.Run(rtlmodel.Forever))
	require.Zero(t, r.hosts[1].received)
	m, ok := r.e.Stats().Lookup("sw/pipe0/drop_malformed")
	require.True(t, ok)
	require.Equal(t, uint64(10), m.(*rtlmodel.Counter).Value())
	in, out, dropped, inside := r.sw.Conservation()
	require.Equal(t, [4]uint64{10, 0, 10, 0}, [4]uint64{in, out, dropped, inside})
}

// A switch's load balancing is the same whether the switch is evaluated at
// every edge, only when it has work, or in a shuffled order (a transfer-by-
// transfer hash over four uplinks, narrow DLB bands so they change often).
// DLB once sampled port quality only at the traffic manager's evaluations,
// and the pipes shared one balancer and read bands written at the same
// edge: always-tick and shuffled runs steered differently.
func TestLoadBalancingIsTheSameInEveryEvaluationMode(t *testing.T) {
	run := func(mode LBMode, opts rtlmodel.Options) string {
		cfg := DefaultConfig()
		cfg.LB = mode
		cfg.DLB = DefaultDLBConfig()
		cfg.DLB.SampleWindow = 40 * rtlmodel.Nanosecond
		cfg.DLB.FlowletGap = 20 * rtlmodel.Nanosecond
		cfg.DLB.BandShift = 8
		cfg.Shapers = map[int]ShaperConfig{2: {Num: 100_000_000_000, Den: 1, DepthBytes: 8192}}
		r := newRig(t, cfg, 6, opts)
		g, err := r.sw.Forwarding().AddGroup([]int{2, 3, 4, 5})
		require.NoError(t, err)
		require.NoError(t, r.sw.Forwarding().SetRoute(5000, g))
		for _, i := range []int{0, 1} {
			hs := r.hosts[i]
			hs.total, hs.payload, hs.entropyPerPacket = 2000, 1024, true
			hs.dst = func(*host, int) uint32 { return 5000 }
		}
		h := fnv.New64a()
		r.e.Hooks().OnTransfer(func(ev *rtlmodel.TransferEvent) {
			fmt.Fprintf(h, "%s %d %d;", ev.Link, ev.Time, ev.Arrive)
		})
		require.NoError(t, r.e.Run(rtlmodel.Forever))
		got := []int{r.hosts[2].received, r.hosts[3].received, r.hosts[4].received, r.hosts[5].received}
		require.Equal(t, 4000, got[0]+got[1]+got[2]+got[3])
		return fmt.Sprintf("%v %x", got, h.Sum64())
	}
	for _, mode := range []LBMode{DLB, RoundRobin, Random} {
		plain := run(mode, rtlmodel.Options{Seed: 1})
		t.Logf("%v: %s", mode, plain)
		require.Equal(t, plain, run(mode, rtlmodel.Options{Seed: 1, AlwaysTick: true}), "%v always-tick", mode)
		for seed := uint64(1); seed <= 3; seed++ {
			require.Equal(t, plain, run(mode, rtlmodel.Options{Seed: 1, ShuffleEval: true, ShuffleSeed: seed}), "%v shuffled (seed %d)", mode, seed)
		}
	}
}
