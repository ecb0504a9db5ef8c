package fabric

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/nic400g"
	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/pipeline"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/serdes"
	"github.com/fabricmodel/fabricmodel/switchasic"
)

// Cable classes of a fabric, by the tiers a cable joins.
const (
	hostCable  = iota // NIC to leaf (edge)
	tier1Cable        // leaf to spine (edge to aggregation)
	tier2Cable        // aggregation to core
	cableClasses
)

// rttHop is a switch of a round trip's path: the port a frame comes in
// by and the propagation of the cable it leaves by.
type rttHop struct {
	sw    *switchasic.Switch
	name  string
	in    int
	cable rtlmodel.Time
}

// rttPath is a path through the most switches between two endpoints of a
// fabric: the host cable into the first switch, the switches, and the
// wire configuration of a NIC's port.
type rttPath struct {
	hostCable rtlmodel.Time
	hops      []rttHop
	nicWire   serdes.WireConfig
}

// longestPath returns the path roundTripBudget follows in the built
// fabric: from the first endpoint of the first plane to the plane's last,
// through five switches in a fat tree, three in a leaf-spine or a rail
// plane of several leaves, one under a lone leaf; each cable the longest
// of its class in the fabric. ok is false when no two endpoints can reach
// each other.
func (s *shape) longestPath(sws []*switchasic.Switch) (p rttPath, ok bool) {
	plane := s.cfg.Planes()[0]
	if len(plane) < 2 {
		return p, false
	}
	cables := s.longestCables(sws)
	srcLeaf, _ := s.locate(plane[0])
	dstLeaf, _ := s.locate(plane[len(plane)-1])
	type hop struct{ sw, in, out int } // out: the class of the cable leaving
	var path []hop
	switch {
	case srcLeaf == dstLeaf:
		path = []hop{{srcLeaf, 0, hostCable}}
	case s.kind == KindFatTree:
		agg, core := s.tiers[1].first, s.tiers[2].first
		dstAgg := agg + dstLeaf/s.e*s.e
		path = []hop{{srcLeaf, 0, tier1Cable}, {agg, 0, tier2Cable}, {core, 0, tier2Cable}, {dstAgg, s.e, tier1Cable}, {dstLeaf, s.h, hostCable}}
	default:
		path = []hop{{srcLeaf, 0, tier1Cable}, {s.tiers[1].first, 0, tier1Cable}, {dstLeaf, s.h, hostCable}}
	}
	p = rttPath{hostCable: cables[hostCable], nicWire: sws[srcLeaf].NeighbourWire(0)}
	for _, h := range path {
		p.hops = append(p.hops, rttHop{sw: sws[h.sw], name: s.name(h.sw), in: h.in, cable: cables[h.out]})
	}
	return p, true
}

// roundTripBudget lists the stages of the largest unloaded round trip
// between two endpoints along path p, as the HPCC artifact computes its
// network-wide base RTT T (GLOBAL_T, FACTS 2.2 S [R13][R14]): a data
// packet of the NIC's MTU one way and its ACK back along a path as long,
// each hop's switch latency, serialisation and cable propagation. The
// stages are the ones WriteBudget follows, from the sender's scheduling
// decision (when a packet's send time is taken) to the ACK at the
// sender's congestion control, which is the RTT sample the NIC measures:
// its transmit pipeline and PHY, the cables, each switch's port-to-port
// budget (PortToPortBudget: cut-through or store-and-forward as the
// switch is configured), the receiving PHY's store-and-forward and the
// receive pipeline; the ACK leaves as the data arrives. Each wait for a
// clock edge counts a whole period, its most, so that T covers every
// pair's unloaded round trip.
func roundTripBudget(p rttPath, nic nic400g.Config) (b pipeline.Budget) {
	data := stackOf(nic.Stack).FrameBytes(nic.MTU)
	if nic.Stack == nic400g.LeanNative {
		st := stackOf(nic.Stack)
		data = st.Header + nic.MTU + st.Trailer + (-nic.MTU & 3)
	}
	ack := stackOf(nic.Stack).FrameBytes(0)
	if nic.Stack != nic400g.LeanNative {
		ack = max(ack, 64) // the Ethernet minimum frame
	}
	if collects, _ := nic400g.CollectsINT(nic); collects {
		data += packet.INTLen // the stack the data reserves
		ack += packet.INTLen  // and the ACK echoes
	}
	var t rtlmodel.Time
	add := func(st pipeline.StageBudget) {
		b = append(b, st)
		t += st.Time()
	}
	oneWay := func(dir string, frame int) {
		add(pipeline.TimeStage(dir+"NIC TX pipeline", rtlmodel.Time(nic.TxCycles)*nic.ClockPeriod, "nic400g Config.TxCycles"))
		add(pipeline.TimeStage(dir+"NIC TX: MAC/PCS/FEC encode/SerDes", p.nicWire.TxLatency, "the leaf port's PHY (switchasic Config.PhyTx)"))
		add(pipeline.TimeStage(dir+"cable NIC to leaf", p.hostCable, "longest host cable, 5 ns/m (FACTS 6.1)"))
		for _, h := range p.hops {
			for _, st := range h.sw.PortToPortBudget(h.in, frame, t) {
				if st.Source == "cycle alignment" {
					st = pipeline.TimeStage(st.Name+", at most", h.sw.Domain().Period(), "one pipe clock period")
				}
				st.Name = dir + h.name + ": " + st.Name
				add(st)
			}
			add(pipeline.TimeStage(dir+"cable", h.cable, "longest cable of its tier, 5 ns/m (FACTS 6.1)"))
		}
		w, err := serdes.NewWire(p.nicWire)
		if err != nil {
			panic(err) // the leaf's own port wire, built already
		}
		tm := w.Transmit(0, frame)
		add(pipeline.TimeStage(fmt.Sprintf("%sNIC RX: receive preamble + %d B", dir, frame), tm.LastBitIn-tm.FirstBitIn, "serdes.Wire at the port's MAC rate"))
		add(pipeline.TimeStage(dir+"NIC RX: RS(544,514) codeword fill", w.FECFill(), "interleave × 5440 b at the line rate (FACTS 3)"))
		add(pipeline.TimeStage(dir+"NIC RX: FEC decode pipeline", p.nicWire.RxPipeline, "the leaf port's PHY (switchasic Config.PhyRx)"))
		add(pipeline.TimeStage(dir+"NIC: wait for the core clock edge, at most", nic.ClockPeriod, "one NIC clock period"))
		add(pipeline.TimeStage(dir+"NIC RX pipeline", rtlmodel.Time(nic.RxCycles)*nic.ClockPeriod, "nic400g Config.RxCycles"))
	}
	oneWay("data: ", data)
	oneWay("ACK: ", ack)
	return b
}

// longestCables returns the longest propagation delay of each cable
// class over every port of the fabric.
func (s *shape) longestCables(sws []*switchasic.Switch) [cableClasses]rtlmodel.Time {
	var out [cableClasses]rtlmodel.Time
	for sw := range sws {
		for p := 0; p < s.ports(sw); p++ {
			class := hostCable
			if peer, _ := s.peer(sw, p); peer >= 0 {
				class = 1 + min(s.tierOf(sw), s.tierOf(peer))
			}
			out[class] = max(out[class], sws[sw].TxPhy(p).Wire().Propagation())
		}
	}
	return out
}

// hpccBaseRTT is the base RTT T that HPCC NICs of a fabric take when
// their configuration names none: roundTripBudget's total along path,
// rounded up to a whole nanosecond (HPCC's INT timestamps are in ns).
func hpccBaseRTT(path rttPath, nic nic400g.Config) rtlmodel.Time {
	ns := rtlmodel.Nanosecond
	return (roundTripBudget(path, nic).Total() + ns - 1) / ns * ns
}

// withHPCCBaseRTT wraps nic so that a NIC running HPCC with no base RTT
// of its own (Config.HPCCBaseRTT 0) gets the fabric's (hpccBaseRTT along
// path), computed once for each NIC timing and frame size among them. ok
// false (no two endpoints reach each other) leaves the NICs' default.
func withHPCCBaseRTT(path rttPath, ok bool, nic func(i int) nic400g.Config) func(i int) nic400g.Config {
	if !ok {
		return nic
	}
	type key struct {
		stack              nic400g.HeaderStack
		mtu                int
		txCycles, rxCycles uint64
		clock              rtlmodel.Time
	}
	known := map[key]rtlmodel.Time{}
	return func(i int) nic400g.Config {
		c := nic(i)
		if c.CC != "hpcc" || c.HPCCBaseRTT != 0 {
			return c
		}
		k := key{c.Stack, c.MTU, c.TxCycles, c.RxCycles, c.ClockPeriod}
		t, ok := known[k]
		if !ok {
			t = hpccBaseRTT(path, c)
			known[k] = t
		}
		c.HPCCBaseRTT = t
		return c
	}
}
