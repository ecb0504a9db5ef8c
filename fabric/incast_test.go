package fabric

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/fabricmodel/fabricmodel/nic400g"
	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/serdes"
	"github.com/fabricmodel/fabricmodel/switchasic"
	"github.com/stretchr/testify/require"
)

type incastResult struct {
	jain, util  float64
	maxQueue    uint64
	cnps, marks uint64
	trace       string
	perFlow     []float64 // Gb/s in the measurement window
}

// incast16 runs 16 senders writing 16 MB each to one receiver through the
// default switch with DCQCN, and measures the window [from, to).
func incast16(t *testing.T, cc string, from, to rtlmodel.Time) incastResult {
	const senders, bytes = 16, 16 << 20
	sw := switchasic.DefaultConfig()
	sw.TM.PFC.Enabled[0] = true // RoCE runs DCQCN over a lossless class (FACTS 2.1, 2.7)
	s, err := NewStar(senders+1, sw, func(i int) nic400g.Config {
		c := nic400g.DefaultConfig(uint32(i))
		c.CC = cc
		return c
	}, rtlmodel.Options{Seed: 1})
	require.NoError(t, err)
	got := make([]uint64, senders)
	var total uint64
	h := sha256.New()
	sink := rtlmodel.NewTraceSink(h)
	s.Engine.Hooks().OnTransfer(func(ev *rtlmodel.TransferEvent) {
		if ev.Link != "sw/port16/wire" {
			return
		}
		f := ev.Value().(serdes.RxFrame[*packet.Desc])
		if f.Frame.Meta.Flags&1 != 0 && ev.Arrive >= from && ev.Arrive < to {
			got[f.Frame.Src] += uint64(f.Frame.Meta.Payload)
			total += uint64(f.Frame.Meta.Payload)
		}
		sink.Write(ev)
	})
	for i := 0; i < senders; i++ {
		addPoster(t, s.Engine, s.NICs[i], s.NICs[i].Host(), []nic400g.WorkRequest{
			{QP: 1, Dst: senders, DestQP: uint32(1 + i), Bytes: bytes, Posted: rtlmodel.Microsecond}})
	}
	require.NoError(t, s.Engine.Run(rtlmodel.Forever))
	require.NoError(t, sink.Flush())
	res := incastResult{trace: hex.EncodeToString(h.Sum(nil)),
		maxQueue: s.Switch.TM().Buffer().MaxUsedCells() * uint64(switchasic.DefaultConfig().TM.CellBytes)}
	var sum, sq float64
	secs := float64(to-from) / 1e12
	for _, g := range got {
		x := float64(g) * 8 / secs / 1e9
		res.perFlow = append(res.perFlow, x)
		sum += x
		sq += x * x
	}
	res.jain = sum * sum / (float64(senders) * sq)
	res.util = float64(total) * 8 / secs / 400e9
	res.cnps = counterSum(s.Engine, "cnp_sent")
	t.Logf("drops %d, retransmits %d, timeouts %d, PFC frames %d", counterSum(s.Engine, "mmu/dropped"),
		counterSum(s.Engine, "/retransmits"), counterSum(s.Engine, "/timeouts"), counterSum(s.Engine, "mmu/pfc_sent"))
	if m, ok := s.Engine.Stats().Lookup("sw/mmu/ecn_marked"); ok {
		res.marks = m.(*rtlmodel.Counter).Value()
	}
	return res
}

func counterSum(e *rtlmodel.Engine, suffix string) uint64 {
	var n uint64
	for _, r := range e.Stats().Records() {
		if r.Kind == "counter" && len(r.Name) > len(suffix) && r.Name[len(r.Name)-len(suffix):] == suffix {
			n += uint64(*r.Value)
		}
	}
	return n
}

// DCQCN on a 16:1 incast through the switch: after convergence the
// senders share the receiver's link fairly (Jain >= 0.95), the queue stays
// bounded, and the same seed gives the same trace.
func TestDCQCNIncastConvergesToFairShares(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIPPED in -short: 256 MB incast")
	}
	from, to := 2*rtlmodel.Millisecond, 5*rtlmodel.Millisecond
	r := incast16(t, "dcqcn", from, to)
	t.Logf("DCQCN 16:1 incast, %v to %v: Jain %.4f, receiver link %.1f%% busy, peak buffer %.2f MB, %d ECN marks, %d CNPs",
		from, to, r.jain, 100*r.util, float64(r.maxQueue)/1e6, r.marks, r.cnps)
	t.Logf("per-flow Gb/s: %.1f", r.perFlow)
	require.GreaterOrEqual(t, r.jain, 0.95)
	require.Greater(t, r.cnps, uint64(0))
	require.Less(t, r.maxQueue, uint64(32<<20), "the queue stays bounded")
	again := incast16(t, "dcqcn", from, to)
	require.Equal(t, r.trace, again.trace, "same seed, same trace")
}
