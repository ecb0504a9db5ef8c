package switchasic

import (
	"fmt"
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// loadRun offers 100 % load of 4 KB frames on every port of the default
// 128x400G switch for rounds rounds of 128 frames per host and reports
// what the egress delivered.
type loadResult struct {
	offered, delivered, inWindow uint64
	window                       rtlmodel.Time
	lineRate                     float64 // frames the egress ports could carry in the window
	drops                        uint64
	p50, p99, max                rtlmodel.Time
	maxQueue                     uint64
}

// conservation checks in = out + dropped + buffered at every edge of the
// switch: frames the hosts' PHYs delivered into the switch equal frames
// the switch's PHYs took for the wire, plus drops, plus what is inside.
func (r *rig) conservation(t testing.TB) func(*rtlmodel.Domain, uint64, rtlmodel.Time) {
	return func(d *rtlmodel.Domain, cycle uint64, now rtlmodel.Time) {
		in, out, dropped, inside := r.sw.Conservation()
		if in != out+dropped+inside {
			t.Fatalf("conservation broken at %v: in %d != out %d + dropped %d + inside %d", now, in, out, dropped, inside)
		}
	}
}

func runLoad(t testing.TB, pattern string, rounds int, seed uint64) loadResult {
	cfg := DefaultConfig()
	cfg.Seed = seed
	n := cfg.Plan.NumPorts()
	r := newRig(t, cfg, n, rtlmodel.Options{Seed: seed})
	r.e.Hooks().OnEdge(r.conservation(t))
	perm := make([][]uint32, 0)
	for k := 0; k < rounds; k++ {
		rng := rtlmodel.NewRNG(seed, fmt.Sprintf("round%d", k))
		p := make([]uint32, n)
		for i := range p {
			p[i] = uint32(i)
		}
		rng.Shuffle(n, func(i, j int) { p[i], p[j] = p[j], p[i] })
		perm = append(perm, p)
	}
	for _, hs := range r.hosts {
		hs.total = rounds * n
		switch pattern {
		case "latin":
			// slot k of round r: host i sends to perm_r((i+k) mod n), so
			// every slot is a permutation and every host's outputs are
			// uniformly random
			hs.dst = func(h *host, seq int) uint32 { return perm[seq/n][(h.id+seq)%n] }
		case "iid":
			hs.dst = func(h *host, _ int) uint32 { return uint32(h.rng.Intn(n)) }
		}
	}
	// Egress throughput in steady state: frames delivered between t1 (the
	// pipeline is full) and t2 (the sources still send) against what 128
	// ports at line rate carry in that time.
	const slot = 83560 // 4178 B wire slot (4096 B payload) at 400 Gb/s, ps
	t1, t2 := rtlmodel.Time(20*slot), rtlmodel.Time(rounds*n-20)*slot
	delivered := func() (d uint64) {
		for _, hs := range r.hosts {
			d += uint64(hs.received)
		}
		return d
	}
	require.NoError(t, r.e.Run(t1))
	d1 := delivered()
	require.NoError(t, r.e.Run(t2))
	var res loadResult
	res.inWindow = delivered() - d1
	res.window = t2 - t1
	res.lineRate = float64(n) * float64(t2-t1) / slot
	require.NoError(t, r.e.Run(rtlmodel.Forever))
	all := r.e.Stats().Histogram("all/latency", "ps", "")
	for _, hs := range r.hosts {
		res.offered += uint64(hs.sent)
		res.delivered += uint64(hs.received)
		all.Merge(hs.latency)
	}
	res.drops = r.sw.mmu.drops.Value()
	res.p50, res.p99, res.max = rtlmodel.Time(all.Percentile(0.5)), rtlmodel.Time(all.Percentile(0.99)), rtlmodel.Time(all.Max())
	res.maxQueue = r.sw.TM().Buffer().MaxUsedCells() * uint64(cfg.TM.CellBytes)
	return res
}

func TestFullLoadRandomOutputs(t *testing.T) {
	res := runLoad(t, "latin", 16, 1)
	tput := float64(res.inWindow) / res.lineRate
	t.Logf("128 x 400G at 100%% load, 4 KB frames, uniformly random outputs (a permutation per slot): offered %d, delivered %d, dropped %d",
		res.offered, res.delivered, res.drops)
	t.Logf("egress throughput in steady state %.4f%% of offered; port-to-port latency p50 %v p99 %v max %v; peak buffer %d B",
		100*tput, res.p50, res.p99, res.max, res.maxQueue)
	require.Zero(t, res.drops)
	require.Equal(t, res.offered, res.delivered)
	require.GreaterOrEqual(t, tput, 0.999)

	iid := runLoad(t, "iid", 16, 1)
	t.Logf("i.i.d. uniform outputs: delivered %d of %d, dropped %d; steady-state egress %.3f%% of offered (output queues of a fully loaded output-queued switch grow as sqrt(t)); latency p50 %v p99 %v max %v; peak buffer %d B",
		iid.delivered, iid.offered, iid.drops, 100*float64(iid.inWindow)/iid.lineRate, iid.p50, iid.p99, iid.max, iid.maxQueue)
	require.Zero(t, iid.drops)
	require.Equal(t, iid.offered, iid.delivered)
}
