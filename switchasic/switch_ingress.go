package switchasic

import (
	"math/bits"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/pipeline"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/serdes"
)

// ingressPipe is one packet-processing pipe: it takes frames from its
// ports' receiving MACs, at most PacketsPerCycle per cycle over all of
// them (round robin), checks the FCS, parses the real header bytes, looks
// up the destination and picks the egress port, and hands the packet to
// the traffic manager after the parser and forwarding pipeline
// (Config.IngressCycles).
//
// A pipe is either a component of its own, which sends each packet to the
// traffic manager over a link of that latency, or hosted by the traffic
// manager (pipes_hosted.go), which runs it at its own edges: its inputs
// then deliver each frame IngressCycles later (Link.DelayArrivals) and the
// pipe, stepping at that later edge, picks the egress as of the edge the
// frame reached it and hands the packet over at once. A pipe's decisions
// depend only on its inputs' arrival times and its own state, so the two
// give the same packets at the same traffic-manager edges; hosting saves
// an evaluation per frame and a link per pipe.
type ingressPipe struct {
	// what stepping the pipe and accepting a frame read comes first
	sw    *Switch
	in    []*rtlmodel.Link[serdes.RxFrame[*packet.Desc]]
	ports []int
	ready pipeline.Bits // inputs that may hold a delivered frame
	lb    *Balancer     // this pipe's: its own strategy state
	ppc   int
	rr    int
	// now is the edge being stepped; delay, hosted, is the pipeline's
	// latency, which the inputs add to every arrival, so the pipe's own
	// edge, at which the balancer picks, is now - delay
	now, delay rtlmodel.Time
	// scratch is where the parser decodes a frame's headers and builds
	// its flow key: the switch's, shared by its pipes, which accept one
	// frame at a time and keep nothing there after it
	scratch  *pipeScratch
	rxFrames rtlmodel.Counter

	badFCS, malformed, noRoute, ttlExpired, pfc rtlmodel.Counter

	h     *rtlmodel.Handle             // nil when hosted
	out   *rtlmodel.Link[*packet.Desc] // to the traffic manager; nil when hosted
	watch rtlmodel.Watch               // deliveries on in; unused when hosted (the MMU's rx watch has them)
	path  string                       // the pipe's name in traces
}

// pipeScratch is the parser's working state for one frame.
type pipeScratch struct {
	frame packet.RoCEv2
	key   packet.FlowKey
}

// Eval moves up to PacketsPerCycle frames into the pipeline.
func (ip *ingressPipe) Eval(edge rtlmodel.Edge) rtlmodel.Wake {
	for {
		i, ok := ip.watch.Next(edge.Time)
		if !ok {
			break
		}
		ip.ready.Set(i)
	}
	if ip.step(edge.Time) {
		return edge.Next()
	}
	return rtlmodel.Never
}

// step moves up to PacketsPerCycle frames into the pipeline at the edge at
// now and reports whether a frame is left for the next edge. It looks only
// at inputs with frames delivered (the ready mask, fed by the inputs'
// watch), in the same round-robin order a scan of every input takes.
func (ip *ingressPipe) step(now rtlmodel.Time) bool {
	ip.now = now
	budget := ip.ppc
	n := len(ip.in)
	for budget > 0 && ip.canSend() {
		// A pass counts k over n positions; position k is input rr+k
		// (mod n) with rr as it stands, moved past each input taken.
		// Inputs not ready have nothing to take, so the pass jumps from
		// ready input to ready input.
		took := false
		for k := 0; k < n && budget > 0 && ip.canSend(); k++ {
			var i int
			i, k = ip.nextReady(k)
			if i < 0 {
				break
			}
			if ip.take(i) {
				took = true
				budget--
			}
		}
		if !took {
			// A whole pass found every input empty at this edge; a
			// later arrival wakes the pipe.
			return false
		}
	}
	for w, word := range ip.ready {
		for word != 0 {
			b := bits.TrailingZeros64(word)
			word &^= 1 << uint(b)
			if _, ok := ip.in[w<<6|b].Peek(); ok {
				return true
			}
			ip.ready.Clear(w<<6 | b)
		}
	}
	return false
}

// canSend reports whether the pipe may hand on one more packet at this
// edge. A hosted pipe hands each to the traffic manager at once, and the
// budget of PacketsPerCycle, the width of a pipe's link, bounds them.
func (ip *ingressPipe) canSend() bool { return ip.out == nil || ip.out.CanSend() }

// pass hands a packet to the traffic manager: over the pipe's link, or,
// hosted, to its admission now (the pipeline's latency is behind it),
// reported to the transfer hooks as the link would report it.
// forward rewrites p, routed (its egress port chosen, its IP header found
// whole), for its next hop and passes it on, or drops it when its TTL ran
// out (switch_rewrite.go).
func (ip *ingressPipe) forward(p *packet.Desc) {
	a, eg := &ip.sw.addrs, p.Egress
	if rewriteFor(&p.Hdr, int(p.HdrLen), &a.both[eg], a.known[eg]) {
		ip.pass(p)
		return
	}
	ip.ttlExpired.Inc()
	ip.sw.pool.Put(p)
}

func (ip *ingressPipe) pass(p *packet.Desc) {
	if ip.out == nil {
		ip.sw.mmu.admit(ip.noted(p), ip.now)
		return
	}
	ip.out.Send(p)
}

// noted reports a hosted pipe's hand-off of p to the transfer hooks, as
// the link of a pipe apart reports it, and returns p.
func (ip *ingressPipe) noted(p *packet.Desc) *packet.Desc {
	if e := ip.sw.e; e.Tracing() {
		e.NoteTransfer(ip.path+">mmu", ip.path, ip.sw.mmu.h.Path(), ip.sw.dom, ip.pickTime(), ip.now, p)
	}
	return p
}

// pickTime is the pipe's own edge: the time its balancer picks at.
func (ip *ingressPipe) pickTime() rtlmodel.Time { return ip.now - ip.delay }

// nextReady returns the first ready input at a position k' >= k of the
// pass (input rr+k', mod the inputs) and k', or -1 when no position left
// holds one.
func (ip *ingressPipe) nextReady(k int) (input, pos int) {
	n := len(ip.in)
	from := ip.rr + k
	if from >= n {
		from -= n
	}
	end := from + n - k // the positions left run from..end-1, mod n
	if i := ip.ready.First(from, min(end, n)); i >= 0 {
		return i, k + i - from
	}
	if end > n {
		if i := ip.ready.First(0, end-n); i >= 0 {
			return i, k + i + n - from
		}
	}
	return -1, n
}

// take moves the frame input i holds into the pipeline, and makes the
// input after it the first of the next pass; it clears i's ready bit and
// reports false when i holds none. It clears the bit too when the frame
// taken was the last the input holds now: a search of the pass would
// find the bit only to fail there and go on after it, where it now goes
// on at once, so the pass is the same without the failed take (and a
// step with nothing left ends with one search instead of a second pass).
func (ip *ingressPipe) take(i int) bool {
	in := ip.in[i]
	f, ok := in.Recv()
	if !ok {
		ip.ready.Clear(i)
		return false
	}
	if _, more := in.Peek(); !more {
		ip.ready.Clear(i)
	}
	ip.rr = i + 1
	if ip.rr == len(ip.in) {
		ip.rr = 0
	}
	ip.accept(ip.ports[i], f)
	return true
}

// accept checks, parses and routes one frame.
func (ip *ingressPipe) accept(port int, f serdes.RxFrame[*packet.Desc]) {
	p := f.Frame
	ip.rxFrames.Inc()
	sw := ip.sw
	if f.Timing.BadFCS() {
		ip.badFCS.Inc()
		sw.pool.Put(p)
		return
	}
	p.Ingress = int16(port)
	p.FirstBitIn = uint64(f.Timing.FirstBitIn)
	p.TailReady = uint64(f.Timing.Decoded())
	p.InLanes = uint8(sw.ports[port].Lanes.Lanes())
	if p.Kind == packet.KindPFC {
		ip.pfc.Inc()
		ip.pass(p)
		return
	}
	if p.Trimmed {
		ip.forwardTrimmed(p)
		return
	}
	if rf, ok := packet.ParseRoCEv2IPv4Route(p.Header(), int(p.FrameBytes)); ok {
		// the common frame: the fields the full decode below would give
		ip.route(p, &rf)
		return
	}
	if isUET(p.Header()) {
		// before the RoCEv2 decode, which a UET frame fails on its UDP
		// port, and whose error it would allocate per frame
		ip.forwardIPUDP(p, false)
		return
	}
	if err := ip.scratch.frame.DecodeHeaders(p.Header(), int(p.FrameBytes)); err != nil {
		ip.malformed.Inc()
		sw.pool.Put(p)
		return
	}
	fr, k := &ip.scratch.frame, &ip.scratch.key
	if !fr.IsIPv6() {
		ip.route(p, &packet.RouteFields{Src: fr.IP4.Src, Dst: fr.IP4.Dst, TOS: fr.IP4.TOS,
			SrcPort: fr.UDP.SrcPort, DstPort: fr.UDP.DstPort, DestQP: fr.BTH.DestQP})
		return
	}
	d := fr.IP6.Dst
	k.SetIPv6(fr.IP6.Src, d)
	p.Class = fr.IP6.TrafficClass >> 5
	k.FlowLabel = fr.IP6.FlowLabel
	ip.forwardBy(p, uint32(d[13])<<16|uint32(d[14])<<8|uint32(d[15]), fr.UDP.SrcPort, fr.UDP.DstPort, fr.BTH.DestQP)
}

// route forwards an IPv4 frame by its forwarding fields: those
// packet.ParseRoCEv2IPv4Route read from the common frame, or a full
// decode's.
func (ip *ingressPipe) route(p *packet.Desc, rf *packet.RouteFields) {
	d := rf.Dst
	ip.scratch.key.SetIPv4(rf.Src, d)
	p.Class = rf.TOS >> 5
	ip.forwardBy(p, uint32(d[1])<<16|uint32(d[2])<<8|uint32(d[3]), rf.SrcPort, rf.DstPort, rf.DestQP)
}

// forwardBy completes the flow key, whose addresses are set, looks up the
// host part dst of the destination and sends p to the port the balancer
// picks in its group.
func (ip *ingressPipe) forwardBy(p *packet.Desc, dst uint32, srcPort, dstPort uint16, destQP uint32) {
	k := &ip.scratch.key
	k.Protocol = packet.IPProtoUDP
	k.SrcPort, k.DstPort = srcPort, dstPort
	k.DestQP = destQP
	k.Entropy = srcPort
	group, ok := ip.sw.fwd.Lookup(dst)
	if !ok {
		ip.noRoute.Inc()
		ip.sw.pool.Put(p)
		return
	}
	p.Egress = int16(ip.lb.Pick(group, k, ip.pickTime()))
	ip.forward(p)
}

// forwardTrimmed routes a header an earlier switch trimmed: its length
// fields still describe the whole packet and its transport headers may be
// cut, so only the IP addresses and UDP ports are read (from the bytes
// kept), and it keeps its high-priority class (FACTS 2.5, 7).
func (ip *ingressPipe) forwardTrimmed(p *packet.Desc) { ip.forwardIPUDP(p, true) }

// isUET reports whether a frame is IP/UDP to the UET port (FACTS 7).
func isUET(h []byte) bool {
	off, v6, ok := ipOffset(h)
	if !ok {
		return false
	}
	l4 := off + packet.IPv6Len
	if !v6 {
		l4 = off + int(h[off]&0x0F)*4
	}
	return len(h) >= l4+4 && uint16(h[l4+2])<<8|uint16(h[l4+3]) == packet.UETPort
}

// forwardIPUDP routes a frame by its IP and UDP headers alone: a trimmed
// header (keepClass: it stays in the trim class) or a UET packet, whose
// class comes from its DSCP as a RoCEv2 packet's does and whose ECMP key
// has no queue pair (UET sprays by the entropy in its UDP source port).
func (ip *ingressPipe) forwardIPUDP(p *packet.Desc, keepClass bool) {
	sw := ip.sw
	h := p.Header()
	off, v6, ok := ipOffset(h)
	if !ok {
		ip.malformed.Inc()
		sw.pool.Put(p)
		return
	}
	k := &ip.scratch.key
	*k = packet.FlowKey{Protocol: packet.IPProtoUDP}
	l4 := off + packet.IPv4MinLen
	var dst uint32
	if v6 {
		var s6, d6 [16]byte
		copy(s6[:], h[off+8:off+24])
		copy(d6[:], h[off+24:off+40])
		k.SetIPv6(s6, d6)
		dst = uint32(d6[13])<<16 | uint32(d6[14])<<8 | uint32(d6[15])
		l4 = off + packet.IPv6Len
		if !keepClass {
			tc := h[off]<<4 | h[off+1]>>4
			p.Class = tc >> 5
			k.FlowLabel = uint32(h[off+1]&0x0F)<<16 | uint32(h[off+2])<<8 | uint32(h[off+3])
		}
	} else {
		var s4, d4 [4]byte
		copy(s4[:], h[off+12:off+16])
		copy(d4[:], h[off+16:off+20])
		k.SetIPv4(s4, d4)
		dst = uint32(d4[1])<<16 | uint32(d4[2])<<8 | uint32(d4[3])
		l4 = off + int(h[off]&0x0F)*4
		if !keepClass {
			p.Class = h[off+1] >> 5
		}
	}
	if len(h) >= l4+4 {
		k.SrcPort = uint16(h[l4])<<8 | uint16(h[l4+1])
		k.DstPort = uint16(h[l4+2])<<8 | uint16(h[l4+3])
		k.Entropy = k.SrcPort
	}
	group, found := sw.fwd.Lookup(dst)
	if !found {
		ip.noRoute.Inc()
		sw.pool.Put(p)
		return
	}
	p.Egress = int16(ip.lb.Pick(group, k, ip.pickTime()))
	ip.forward(p)
}
