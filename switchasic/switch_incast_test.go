package switchasic

import (
	"math"
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// incast sends 8 hosts' 4 KB frames of class 3 to host 8 at line rate.
func incast(t *testing.T, cfg Config, frames int) *rig {
	r := newRig(t, cfg, 9, rtlmodel.Options{Seed: 1})
	r.e.Hooks().OnEdge(r.conservation(t))
	for i := 0; i < 8; i++ {
		hs := r.hosts[i]
		hs.class, hs.ect, hs.total = 3, true, frames
		hs.dst = func(*host, int) uint32 { return 8 }
	}
	require.NoError(t, r.e.Run(rtlmodel.Forever))
	return r
}

// An 8:1 incast on a PFC class loses nothing; the PFC frames the switch
// sends come from the port's MAC, their bytes saying what their
// descriptors do.
func TestIncastWithPFCIsLossless(t *testing.T) {
	cfg := DefaultConfig()
	cfg.TM.PFC.Enabled[3] = true
	r := incast(t, cfg, 2000)
	sink := r.hosts[8]
	require.Equal(t, 8*2000, sink.received, "every frame arrives")
	require.Zero(t, r.sw.mmu.drops.Value())
	sent, recv := r.sw.mmu.pfcSent.Value(), 0
	for i := 0; i < 8; i++ {
		recv += r.hosts[i].pfcIn
	}
	t.Logf("8:1 incast with PFC: 16000 frames delivered, 0 dropped; %d PFC frames sent, %d received by the senders; peak buffer %d B",
		sent, recv, r.sw.TM().Buffer().MaxUsedCells()*uint64(cfg.TM.CellBytes))
	require.Greater(t, sent, uint64(0))
	require.Equal(t, int(sent), recv)
	for i := 0; i < 8; i++ {
		hs := r.hosts[i]
		require.Zero(t, hs.badPFC, "host %d: PFC frames whose bytes disagree with their descriptor", i)
		if hs.pfcIn > 0 {
			// host i is on port i
			require.Equal(t, map[[6]byte]int{{0x02, 0xFF, 0, 0, 0, byte(i)}: hs.pfcIn}, hs.pfcSrc, "host %d", i)
		}
	}
}

// Every header the switch trims reaches the receiver in the trim class,
// its DSCP remarked to that class with a valid IPv4 header checksum.
func TestIncastWithTrimmingDeliversEveryTrimmedHeader(t *testing.T) {
	cfg := DefaultConfig()
	cfg.TM.PFC.Enabled = [8]bool{}
	cfg.TM.Trim.Enabled = true
	cfg.TM.Trim.Trimmable = [MaxClasses]bool{3: true} // the incast's class
	cfg.TM.BufferBytes = 2 << 20                      // a small buffer so the incast overflows it
	r := incast(t, cfg, 2000)
	sink := r.hosts[8]
	trims := r.sw.mmu.trims.Value()
	t.Logf("8:1 incast with trimming, 2 MiB buffer: %d trimmed, %d dropped; the receiver got %d full frames and %d trimmed headers, all in class %v",
		trims, r.sw.mmu.drops.Value(), sink.received-sink.trimmed, sink.trimmed, sink.trimmedClass)
	require.Greater(t, trims, uint64(0))
	require.Equal(t, int(trims), sink.trimmed, "every trimmed header is delivered")
	require.Equal(t, map[uint8]int{uint8(cfg.TM.Trim.TrimClass): sink.trimmed}, sink.trimmedClass)
	require.Equal(t, map[uint8]int{uint8(cfg.TM.Trim.TrimClass): sink.trimmed}, sink.trimmedDSCP,
		"the switch remarks a trimmed header's DSCP to the trim class")
	require.Zero(t, sink.badChecksums, "and its IPv4 header checksum with it")
	require.Equal(t, 8*2000, sink.received+int(r.sw.mmu.drops.Value()))
}

func TestINTRecordsQueueAndBytes(t *testing.T) {
	cfg := DefaultConfig()
	cfg.TM.PFC.Enabled[3] = true
	r := newRig(t, cfg, 9, rtlmodel.Options{Seed: 1})
	for i := 0; i < 8; i++ {
		hs := r.hosts[i]
		hs.class, hs.total, hs.withINT = 3, 200, true
		hs.dst = func(*host, int) uint32 { return 8 }
	}
	require.NoError(t, r.e.Run(rtlmodel.Forever))
	hops := r.hosts[8].intHops
	require.Len(t, hops, 1600)
	var maxQ uint64
	prevBytes := uint32(0)
	for i, h := range hops {
		require.Equal(t, uint8(4), h.LineRate, "400G")
		maxQ = max(maxQ, h.QueueBytes())
		if i > 0 {
			// the port's byte counter grows by one frame per packet, in 128 B units
			d := (h.Bytes - prevBytes) & (1<<20 - 1)
			require.InDelta(t, float64(r.hosts[0].bytes)/128, float64(d), 1)
		}
		prevBytes = h.Bytes
	}
	t.Logf("INT over an 8:1 incast: %d hop records, largest queue %d B", len(hops), maxQ)
	require.Greater(t, maxQ, uint64(100_000))
}

// With ECN on a lossy class, the marks the switch writes follow the WRED
// curve: in each band of queue depth, the marked fraction agrees with the
// curve's mean probability over the depths seen within 4 standard errors.
func TestECNMarkingFollowsTheWREDCurve(t *testing.T) {
	cfg := DefaultConfig()
	cfg.TM.WRED[3] = WREDConfig{Enabled: true, KminBytes: 200_000, KmaxBytes: 20_000_000, PmaxQ: 65536 / 5}
	curve := NewWREDCurve(cfg.TM.WRED[3])
	type band struct {
		lo, hi         uint64
		n, marks       int
		expect, varsum float64
	}
	bands := []*band{{0, 200_000, 0, 0, 0, 0}, {200_000, 6_800_000, 0, 0, 0, 0}, {6_800_000, 13_400_000, 0, 0, 0, 0},
		{13_400_000, 20_000_000, 0, 0, 0, 0}, {20_000_000, 1 << 40, 0, 0, 0, 0}}
	r := newRig(t, cfg, 9, rtlmodel.Options{Seed: 1})
	r.sw.OnAdmit(func(egress, class int, depth uint64, ect bool, v Verdict) {
		if class != 3 || !ect {
			return
		}
		for _, b := range bands {
			if depth >= b.lo && depth < b.hi {
				p := float64(curve.Probability(depth)) / 65536
				b.n++
				b.expect += p
				b.varsum += p * (1 - p)
				if v.MarkCE {
					b.marks++
				}
			}
		}
	})
	for i := 0; i < 8; i++ {
		hs := r.hosts[i]
		hs.class, hs.ect, hs.total = 3, true, 1000
		hs.dst = func(*host, int) uint32 { return 8 }
	}
	require.NoError(t, r.e.Run(rtlmodel.Forever))
	total := 0
	for _, b := range bands {
		sd := math.Sqrt(b.varsum)
		t.Logf("queue %7d..%7d B: %4d packets, %4d marked (%.3f), curve expects %.1f ± %.1f",
			b.lo, min(b.hi, 99_999_999), b.n, b.marks, float64(b.marks)/math.Max(1, float64(b.n)), b.expect, sd)
		require.Greater(t, b.n, 50, "each band is visited")
		require.InDelta(t, b.expect, float64(b.marks), 4*sd+1)
		total += b.marks
	}
	require.Equal(t, total, r.hosts[8].marked, "every mark reaches the receiver in the header")
}
