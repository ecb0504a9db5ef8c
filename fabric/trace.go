package fabric

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/serdes"
)

// TraceFlows records, for the flows with the given IDs, every hop of every
// frame between their two endpoints: the data one way and the ACKs, CNPs
// and read traffic the other, from each NIC through each switch's pipes,
// traffic manager and PHYs to the other NIC (every link transfer whose
// item is such a frame). Flows between the same two endpoints share
// their frames' path and are traced together. Write the recorder's trace
// (rtlmodel.TraceRecorder.WriteTo) after the run: the transfers in the
// order of their times, the same for a partitioned and a lockstep run,
// and with the switches' ingress pipes hosted by their traffic managers
// or apart (each pipe's hand-off shows as its link to the traffic
// manager). Call it before the run. The links that carry frames report
// only the traced flows' (rtlmodel.KeepTransfers), so the others cost
// what they cost untraced; the model's other links stage their items for
// the hooks, which slows the run somewhat. A long trace need not
// stay in memory to the end: write what the engine's TraceComplete
// allows between steps of the run (TraceRecorder.WriteBefore).
func (r *Run) TraceFlows(ids []int) (*rtlmodel.TraceRecorder, error) {
	traced, err := r.flowFilter(ids)
	if err != nil {
		return nil, err
	}
	rec := rtlmodel.NewTraceRecorder(func(ev *rtlmodel.TransferEvent) bool {
		d := traceDesc(ev)
		return d != nil && traced(d)
	})
	e := r.Cluster.Engine
	rec.Attach(e)
	// the frames of other flows go by the hooks, as in a run without them
	rtlmodel.KeepTransfers(e, traced)
	rtlmodel.KeepTransfers(e, func(f serdes.RxFrame[*packet.Desc]) bool { return traced(f.Frame) })
	return rec, nil
}

// flowFilter reports, for the flows with the given IDs, which packets are
// theirs: those between the two endpoints of one of them, either way (PFC
// frames are no flow's).
func (r *Run) flowFilter(ids []int) (func(*packet.Desc) bool, error) {
	if len(ids) == 0 {
		return nil, fmt.Errorf("fabric: trace: no flow chosen")
	}
	type pair struct{ a, b uint32 }
	pairs := map[pair]bool{}
	for _, id := range ids {
		if id < 0 || id >= len(r.Flows) {
			return nil, fmt.Errorf("fabric: trace: no flow %d (the run has flows 0 to %d)", id, len(r.Flows)-1)
		}
		f := r.Flows[id]
		pairs[pair{uint32(f.Src), uint32(f.Dst)}] = true
		pairs[pair{uint32(f.Dst), uint32(f.Src)}] = true
	}
	// the frames of every flow pass the filter: a source of no traced
	// pair is told apart by one bit, before any lookup of the pair
	var sources []uint64
	for p := range pairs {
		for int(p.a>>6) >= len(sources) {
			sources = append(sources, 0)
		}
		sources[p.a>>6] |= 1 << (p.a & 63)
	}
	return func(d *packet.Desc) bool {
		if w := int(d.Src >> 6); w >= len(sources) || sources[w]&(1<<(d.Src&63)) == 0 {
			return false
		}
		return d.Kind != packet.KindPFC && pairs[pair{d.Src, d.Dst}]
	}, nil
}

// traceDesc returns the packet a transfer carries: a descriptor on its
// own (NIC to PHY, pipe to traffic manager, traffic manager to PHY) or a
// frame off a wire; nil for anything else. It boxes no item: the filter
// sees every transfer of the fabric to keep a few.
func traceDesc(ev *rtlmodel.TransferEvent) *packet.Desc {
	if d, ok := rtlmodel.TransferValue[*packet.Desc](ev); ok {
		return d
	}
	if f, ok := rtlmodel.TransferValue[serdes.RxFrame[*packet.Desc]](ev); ok {
		return f.Frame
	}
	return nil
}
