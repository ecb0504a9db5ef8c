package switchasic

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/pipeline"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/serdes"
)

// Switch is a built switch: its pipes, traffic manager and egress PHYs
// registered with an engine. Neighbours attach to its ports with AttachRx
// (their PHY delivers into the switch) and AttachTx (the switch's PHY
// delivers to them).
type Switch struct {
	cfg   Config
	path  string
	e     *rtlmodel.Engine
	dom   *rtlmodel.Domain
	pool  *packet.DescPool
	ports []Port
	pipes []*ingressPipe
	mmu   *mmu
	tx    []*serdes.PhyLink[*packet.Desc]
	txIn  []*rtlmodel.Link[*packet.Desc]
	fwd   *ForwardingTable
	lbs   []*Balancer // one per pipe
	ecmp  *packet.ECMPHasher
	tm    *TrafficManager
	// pauseSer times PFC pause quanta at each port's MAC rate (made on
	// first use, so a pause costs no allocation)
	pauseSer []*serdes.Serializer

	dropsByReason map[DropReason]*rtlmodel.Counter
	addrs         portAddrs // the MACs the rewrite writes (switch_rewrite.go)
}

// New builds a switch under path in a new clock domain of the engine.
func New(e *rtlmodel.Engine, path string, cfg Config, pool *packet.DescPool) (*Switch, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if cfg.LB == DLB && cfg.DLB.SampleWindow == 0 {
		cfg.DLB = DefaultDLBConfig()
	}
	dom, err := e.AddDomain(path+"/core", cfg.Pipes.ClockPeriod, 0)
	if err != nil {
		return nil, err
	}
	sw := &Switch{cfg: cfg, path: path, e: e, dom: dom, pool: pool, ports: cfg.Plan.Ports(),
		dropsByReason: map[DropReason]*rtlmodel.Counter{}}
	n := len(sw.ports)
	sw.pauseSer = make([]*serdes.Serializer, n)
	if sw.tm, err = NewTrafficManager(cfg.TM, cfg.Seed); err != nil {
		return nil, err
	}
	sw.tm.Observe(e.Stats(), path+"/tm")
	sw.fwd = NewForwardingTable(DefaultMaxEndpoints)
	ecmp := cfg.ECMP
	if ecmp.Seed == 0 {
		ecmp.Seed = uint32(cfg.Seed * 0x9E3779B97F4A7C15 >> 32)
	}
	hasher, err := packet.NewECMPHasher(ecmp)
	if err != nil {
		return nil, err
	}
	sw.ecmp = hasher
	sw.addrs = newPortAddrs(cfg.MAC, n)
	if err := sw.buildMMU(n); err != nil {
		return nil, err
	}
	if err := sw.buildPipes(); err != nil {
		return nil, err
	}
	return sw, sw.buildTx(n)
}

func (sw *Switch) buildMMU(n int) error {
	st := sw.e.Stats()
	p := sw.path + "/mmu"
	m := &mmu{sw: sw, tm: sw.tm, trim: sw.tm.Config().Trim, q: make([][8]pktQueue, n), pausedUntil: make([][8]rtlmodel.Time, n), pauseEnd: make([]rtlmodel.Time, n),
		pfcPending: make([]uint8, n), xoffRefresh: make([]rtlmodel.Time, n), nextRefresh: rtlmodel.Forever, occupied: make([]uint8, n), rxOf: make([]uint32, n), pfcXon: make([]uint8, n), txBytes: make([]uint64, n), work: make([]uint64, (n+63)/64), parked: make([]uint64, (n+63)/64), held: make([]uint64, (n+63)/64)}
	st.Own(&m.enq, p+"/enqueued", "packets", "packets admitted")
	st.Own(&m.deq, p+"/dequeued", "packets", "packets sent to egress")
	st.Own(&m.trims, p+"/trimmed", "packets", "packets trimmed to their headers")
	st.Own(&m.marks, p+"/ecn_marked", "packets", "packets marked CE")
	st.Own(&m.drops, p+"/dropped", "packets", "packets dropped by admission")
	st.Own(&m.trimDrops, p+"/trimmed_dropped", "packets", "headers trimmed by an earlier switch and dropped by admission here")
	st.Own(&m.pfcSent, p+"/pfc_sent", "frames", "PFC frames sent")
	st.Own(&m.pfcRecv, p+"/pfc_received", "frames", "PFC frames obeyed")
	m.shapers, m.shapedUntil = make([]*pipeline.Shaper, n), make([]rtlmodel.Time, n)
	m.sched = make([]pipeline.SPDWRR8, 0, n)
	m.dlb, m.sampleTx = sw.cfg.LB == DLB, make([]uint64, n)
	for i := 0; i < n; i++ {
		s, err := pipeline.NewSPDWRR8(sw.cfg.Classes[:])
		if err != nil {
			return err
		}
		m.sched = append(m.sched, s)
		if sc, ok := sw.cfg.Shapers[i]; ok {
			if m.shapers[i], err = pipeline.NewShaper(sc.Num, sc.Den, sc.DepthBytes); err != nil {
				return fmt.Errorf("switch: shaper on port %d: %w", i, err)
			}
		}
	}
	var err error
	if m.h, err = sw.e.Add(sw.dom, p, m); err != nil {
		return err
	}
	dlb := sw.dlbConfig()
	if err := dlb.Validate(); err != nil {
		return err
	}
	m.quality, m.bands = NewPortQuality(dlb), newPublishedBands(m.h)
	sw.mmu = m
	return nil
}

func (sw *Switch) buildPipes() error {
	st := sw.e.Stats()
	scratch := new(pipeScratch)
	if sw.hostsPipes() {
		sw.mmu.pipesReady = pipeline.NewBits(sw.cfg.Pipes.Pipes)
	}
	for i := 0; i < sw.cfg.Pipes.Pipes; i++ {
		p := fmt.Sprintf("%s/pipe%d", sw.path, i)
		ip := &ingressPipe{sw: sw, ppc: sw.cfg.Pipes.PacketsPerCycle, lb: sw.pipeBalancer(i), scratch: scratch, path: p}
		st.Own(&ip.rxFrames, p+"/rx_frames", "frames", "frames received")
		st.Own(&ip.badFCS, p+"/drop_bad_fcs", "frames", "frames dropped for a bad FCS")
		st.Own(&ip.malformed, p+"/drop_malformed", "frames", "frames the parser rejected")
		st.Own(&ip.noRoute, p+"/drop_no_route", "frames", "frames with no route")
		st.Own(&ip.ttlExpired, p+"/drop_ttl_expired", "frames", "frames that came with a TTL (hop limit) of 1 or 0")
		st.Own(&ip.pfc, p+"/rx_pfc", "frames", "PFC frames received")
		if sw.hostsPipes() {
			ip.delay = rtlmodel.Time(sw.cfg.IngressCycles) * sw.dom.Period()
			sw.mmu.hosted = append(sw.mmu.hosted, ip)
			sw.pipes = append(sw.pipes, ip)
			sw.lbs = append(sw.lbs, ip.lb)
			continue
		}
		var err error
		if ip.h, err = sw.e.Add(sw.dom, p, ip); err != nil {
			return err
		}
		ip.out, err = rtlmodel.NewLink[*packet.Desc](p+">mmu", ip.h, sw.mmu.h,
			rtlmodel.LinkConfig{Latency: sw.cfg.IngressCycles, Width: sw.cfg.Pipes.PacketsPerCycle})
		if err != nil {
			return err
		}
		ip.out.WatchArrivals(&sw.mmu.arrivals, len(sw.mmu.in))
		// the pipeline's 64 ns often carry a packet into the next window
		ip.out.ReadAheadWith(readDescAhead)
		ip.out.PrefetchWith(prefetchDesc)
		ip.out.ReadAheadInWindows()
		sw.mmu.in = append(sw.mmu.in, ip.out)
		sw.pipes = append(sw.pipes, ip)
		sw.lbs = append(sw.lbs, ip.lb)
	}
	return nil
}

// frameTail is when a frame's tail was decoded at this switch's ingress
// and that ingress port's lanes, for a cut-through egress PHY.
func frameTail(p *packet.Desc) (rtlmodel.Time, int) {
	return rtlmodel.Time(p.TailReady), int(p.InLanes)
}

func (sw *Switch) buildTx(n int) error {
	for i := 0; i < n; i++ {
		p := fmt.Sprintf("%s/port%d/tx", sw.path, i)
		phy, err := serdes.NewPhyLink[*packet.Desc](sw.e, sw.dom, p, sw.wireConfig(i), frameBytes)
		if err != nil {
			return err
		}
		if sw.cfg.CutThroughBytes > 0 {
			phy.SetTail(frameTail)
		}
		// The egress pipeline holds bytes, not frames: as many as the port
		// sends in its latency plus one largest frame, so a paused port
		// drains at most that much after the pause (FACTS 2.7 headroom).
		lc := rtlmodel.LinkConfig{Latency: sw.cfg.MMUCycles + sw.cfg.EgressCycles, Width: 1, CreditLatency: 1,
			WidthBytes: sw.ports[i].Lanes.MACRate().BytesPerCycle(sw.dom.Period()), MaxItemBytes: MaxFrameBytes}
		lc.Credits = rtlmodel.CreditRoundTrip(lc, sw.dom, sw.dom)
		in, err := rtlmodel.NewByteLink[*packet.Desc](fmt.Sprintf("%s/mmu>port%d", sw.path, i), sw.mmu.h, phy.Handle(), lc, frameBytes)
		if err != nil {
			return err
		}
		in.WatchCredits(&sw.mmu.watch, i)
		if err := phy.Connect(in, nil); err != nil { // AttachTx adds the wire to the neighbour
			return err
		}
		sw.mmu.out = append(sw.mmu.out, in)
		sw.mmu.phys = append(sw.mmu.phys, phy)
		sw.tx = append(sw.tx, phy)
		sw.txIn = append(sw.txIn, in)
	}
	return nil
}

func frameBytes(p *packet.Desc) int { return int(p.FrameBytes) }

// MaxFrameBytes is the largest frame the models carry: a 9216-byte jumbo
// frame with room for its headers (E).
const MaxFrameBytes = 9600

// wireConfig is the PHY of port i, in either direction.
func (sw *Switch) wireConfig(i int) serdes.WireConfig {
	cable := sw.cfg.CableMillimetres
	if c, ok := sw.cfg.PortCableMillimetres[i]; ok {
		cable = c
	}
	return serdes.WireConfig{Lanes: sw.ports[i].Lanes, Interleave: sw.cfg.Interleave,
		CableMillimetres: cable, TxLatency: sw.cfg.PhyTx, RxPipeline: sw.cfg.PhyRx,
		CutThroughBytes: sw.cfg.CutThroughBytes, Seed: sw.cfg.Seed ^ uint64(i)*0x9e3779b97f4a7c15}
}

// NeighbourWire is the PHY configuration a neighbour uses to send into
// port i (same lanes, cable and FEC as the switch's side).
func (sw *Switch) NeighbourWire(i int) serdes.WireConfig { return sw.wireConfig(i) }

// AttachRx connects a neighbour's PHY, which delivers into port i.
func (sw *Switch) AttachRx(i int, phy *serdes.PhyLink[*packet.Desc]) (*rtlmodel.Link[serdes.RxFrame[*packet.Desc]], error) {
	pipe := sw.pipes[sw.ports[i].Pipe]
	to := pipe.h
	if pipe.h == nil {
		to = sw.mmu.h // hosted (hostsPipes)
	}
	l, err := rtlmodel.NewLink[serdes.RxFrame[*packet.Desc]](fmt.Sprintf("%s/port%d/rx", sw.path, i), phy.Handle(), to,
		rtlmodel.LinkConfig{Latency: 1, Width: 1})
	if err != nil {
		return nil, err
	}
	if pipe.h == nil {
		l.DelayArrivals(sw.cfg.IngressCycles)
		l.TraceDelayAs(pipe.path) // traced as it is with the pipe apart
		l.WatchArrivals(&sw.mmu.rx, i)
		sw.mmu.rxOf[i] = rxEntry(sw.ports[i].Pipe, len(pipe.in))
	} else {
		l.WatchArrivals(&pipe.watch, len(pipe.in))
	}
	l.ReadAheadWith(readFrameAhead)
	l.PrefetchWith(prefetchFrame)
	pipe.ports = append(pipe.ports, i)
	pipe.in = append(pipe.in, l)
	pipe.ready = pipeline.NewBits(len(pipe.in))
	return l, nil
}

// AttachTx connects port i's egress PHY to the neighbour to that delivers
// to; it returns the link the neighbour receives from.
func (sw *Switch) AttachTx(i int, to *rtlmodel.Handle) (*rtlmodel.Link[serdes.RxFrame[*packet.Desc]], error) {
	l, err := rtlmodel.NewLink[serdes.RxFrame[*packet.Desc]](fmt.Sprintf("%s/port%d/wire", sw.path, i), sw.tx[i].Handle(), to,
		rtlmodel.LinkConfig{Latency: 1, Width: 1})
	if err != nil {
		return nil, err
	}
	if err := sw.wireTx(i, l); err != nil {
		return nil, err
	}
	l.ReadAheadWith(readFrameAhead)
	l.PrefetchWith(prefetchFrame)
	return l, nil
}

// readDescAhead reads a descriptor's first line (ReadAheadWith), what the
// traffic manager reads of a packet.
func readDescAhead(p *packet.Desc) uint64 { return uint64(p.Kind) }

// readFrameAhead reads what a receiver first reads of a frame: its
// descriptor's first line and its headers (rtlmodel.Link.ReadAheadWith).
func readFrameAhead(f serdes.RxFrame[*packet.Desc]) uint64 { return f.Frame.ReadAhead() }

// LinkTo cables port i of this switch to port j of peer, one direction:
// this switch's egress PHY delivers into the peer's ingress pipe. Call it
// both ways for a duplex link.
func (sw *Switch) LinkTo(i int, peer *Switch, j int) error {
	l, err := peer.AttachRx(j, sw.tx[i])
	if err != nil {
		return err
	}
	sw.SetNeighbourMAC(i, peer.PortMAC(j))
	return sw.wireTx(i, l)
}

// wireTx connects port i's egress PHY to the link to its neighbour, l,
// and lists the port among the traffic manager's wired ports (whose lines
// its Prefetch names).
func (sw *Switch) wireTx(i int, l *rtlmodel.Link[serdes.RxFrame[*packet.Desc]]) error {
	if err := sw.tx[i].Connect(sw.txIn[i], l); err != nil {
		return err
	}
	sw.mmu.wired = append(sw.mmu.wired, i)
	return nil
}

// Ports returns the port list.
func (sw *Switch) Ports() []Port { return sw.ports }

// Domain returns the switch's clock domain.
func (sw *Switch) Domain() *rtlmodel.Domain { return sw.dom }

// Config returns the configuration.
func (sw *Switch) Config() Config { return sw.cfg }

// Forwarding returns the forwarding table to fill with routes.
func (sw *Switch) Forwarding() *ForwardingTable { return sw.fwd }

// Balancers returns the load balancers, one per pipe: each pipe picks the
// egress of the packets it receives with its own strategy state (round-
// robin pointers, random stream, its share of the flowlet table), all
// reading the DLB bands the traffic manager publishes. Their Quality is the
// traffic manager's port quality, for reading: the traffic manager samples
// it and publishes its bands at the end of the edge, so an UpdatePort on
// one of these balancers would reach the bands only at the next sample.
func (sw *Switch) Balancers() []*Balancer { return sw.lbs }

// dlbConfig is the DLB configuration, the default when none is set (its
// quality arithmetic is kept in every mode).
func (sw *Switch) dlbConfig() DLBConfig {
	if sw.cfg.DLB == (DLBConfig{}) {
		return DefaultDLBConfig()
	}
	return sw.cfg.DLB
}

// pipeBalancer builds pipe i's balancer.
func (sw *Switch) pipeBalancer(i int) *Balancer {
	dlb := sw.dlbConfig()
	dlb.FlowletEntries = max(1, dlb.FlowletEntries/sw.cfg.Pipes.Pipes)
	seed := sw.cfg.Seed + uint64(i)*0x9E3779B97F4A7C15
	return &Balancer{mode: sw.cfg.LB, table: sw.fwd, quality: sw.mmu.quality,
		strat: newStrategy(sw.cfg.LB, sw.ecmp, seed, dlb, sw.mmu.bands)}
}

// TM returns the traffic manager.
func (sw *Switch) TM() *TrafficManager { return sw.tm }

// TxPhy returns port i's egress PHY.
func (sw *Switch) TxPhy(i int) *serdes.PhyLink[*packet.Desc] { return sw.tx[i] }

func (sw *Switch) dropReason(r DropReason) {
	c, ok := sw.dropsByReason[r]
	if !ok {
		c = sw.e.Stats().Counter(sw.path+"/drops/"+r.String(), "packets", "packets dropped: "+r.String())
		sw.dropsByReason[r] = c
	}
	c.Inc()
}

// Conservation returns the switch's packet books: data frames that entered
// (from the ingress MACs), frames handed to the egress PHYs, frames
// dropped (bad FCS, parse errors, no route, admission), and frames inside
// (in the ingress pipelines and the buffer). in = out + dropped + inside
// holds at every edge; tests check it continuously.
func (sw *Switch) Conservation() (in, out, dropped, inside uint64) {
	m := sw.mmu
	var pfcIn uint64
	for _, ip := range sw.pipes {
		in += ip.rxFrames.Value()
		pfcIn += ip.pfc.Value()
		dropped += ip.badFCS.Value() + ip.malformed.Value() + ip.noRoute.Value() + ip.ttlExpired.Value()
		if ip.out != nil {
			inside += uint64(ip.out.Pending())
		}
	}
	in -= pfcIn
	inside -= pfcIn - m.pfcRecv.Value() // PFC frames still on their way to the MMU
	dropped += m.drops.Value()
	inside += m.buffered
	return in, m.deq.Value(), dropped, inside
}

// OnAdmit calls fn for every admission decision with the queue depth the
// traffic manager saw (for marking and drop studies); nil turns it off.
func (sw *Switch) OnAdmit(fn func(egress, class int, depthBytes uint64, ect bool, v Verdict)) {
	sw.mmu.onAdmit = fn
}
