package switchasic

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// BenchmarkSwitchFullLoad runs the default 128x400G switch with every
// port at 100 % load of 4 KB frames to uniformly random outputs (a
// permutation per slot) and reports delivered packets per wall-second.
// One op is one 4 KB-payload wire slot of simulated time (83.56 ns: 128 packets
// through the switch); allocs/op is the steady state.
func BenchmarkSwitchFullLoad(b *testing.B) {
	cfg := DefaultConfig()
	n := cfg.Plan.NumPorts()
	r := newRig(b, cfg, n, rtlmodel.Options{Seed: 1})
	rng := rtlmodel.NewRNG(1, "perm")
	perm := make([]uint32, n)
	for i := range perm {
		perm[i] = uint32(i)
	}
	rng.Shuffle(n, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
	for _, hs := range r.hosts {
		hs.total = 1 << 60
		hs.lite = true
		hs.dst = func(h *host, seq int) uint32 { return perm[(h.id+seq)%n] }
	}
	const slot = 83560 // 4178 B wire slot at 400 Gb/s, ps
	at := rtlmodel.Time(200 * slot)
	if err := r.e.Run(at); err != nil { // warm up: templates, queues, pools
		b.Fatal(err)
	}
	count := func() (d int) {
		for _, hs := range r.hosts {
			d += hs.received
		}
		return d
	}
	before := count()
	b.ReportAllocs()
	b.ResetTimer()
	if err := r.e.Run(at + rtlmodel.Time(b.N)*slot); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	pkts := count() - before
	b.ReportMetric(float64(pkts)/b.Elapsed().Seconds(), "pkts/s")
}
