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

// DLB's port quality is sampled at fixed points, so a switch evaluated at
// every edge, or in a shuffled order, moves every frame at the same cycle
// as one evaluated only when it has work (a transfer-by-transfer hash).
// With the samples taken only at evaluations, always-tick had differed.
func TestDLBIdleSkipEqualsAlwaysTick(t *testing.T) {
	run := func(opts rtlmodel.Options) string {
		cfg := DefaultConfig()
		cfg.LB = DLB
		cfg.DLB = DefaultDLBConfig()
		cfg.DLB.SampleWindow = 50 * rtlmodel.Nanosecond
		cfg.DLB.FlowletGap = 20 * rtlmodel.Nanosecond
		cfg.Shapers = map[int]ShaperConfig{2: {Num: 100_000_000_000, Den: 1, DepthBytes: 8192}}
		r := newRig(t, cfg, 4, opts)
		g, err := r.sw.Forwarding().AddGroup([]int{2, 3})
		require.NoError(t, err)
		require.NoError(t, r.sw.Forwarding().SetRoute(5000, g))
		for _, i := range []int{0, 1} {
			hs := r.hosts[i]
			hs.total, hs.payload, hs.entropyPerPacket = 3000, 1024, true
			hs.dst = func(*host, int) uint32 { return 5000 }
		}
		h := fnv.New64a()
		r.e.Hooks().OnTransfer(func(ev *rtlmodel.TransferEvent) {
			fmt.Fprintf(h, "%s %d %d;", ev.Link, ev.Time, ev.Arrive)
		})
		require.NoError(t, r.e.Run(rtlmodel.Forever))
		require.Equal(t, 6000, r.hosts[2].received+r.hosts[3].received)
		return fmt.Sprintf("%d/%d %x", r.hosts[2].received, r.hosts[3].received, h.Sum64())
	}
	plain := run(rtlmodel.Options{Seed: 1})
	require.Equal(t, plain, run(rtlmodel.Options{Seed: 1, AlwaysTick: true}), "always-tick")
	require.Equal(t, plain, run(rtlmodel.Options{Seed: 1, ShuffleEval: true, ShuffleSeed: 3}), "shuffled")
}
