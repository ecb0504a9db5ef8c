package switchasic

import (
	"math"
	"math/bits"
	"unsafe"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/pipeline"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/serdes"
)

// mmu is the shared-buffer traffic manager as a component: it admits what
// the pipes send (TrafficManager decides enqueue, trim or drop, ECN marks
// and PFC XOFF), keeps a FIFO per egress port and class, obeys PFC frames
// received from each port's neighbour, sends PFC frames of its own, and
// schedules each egress port (SP + DWRR over its classes) whenever the
// port's PHY can take a frame. The link to each PHY has the MMU and egress
// pipeline latency (Config.MMUCycles + EgressCycles).
type mmu struct {
	h    *rtlmodel.Handle
	sw   *Switch
	tm   *TrafficManager
	trim TrimConfig
	in   []*rtlmodel.Link[*packet.Desc]
	out  []*rtlmodel.Link[*packet.Desc]
	phys []*serdes.PhyLink[*packet.Desc] // the egress PHYs out delivers to, for Prefetch
	// wired: the ports whose PHY has a wire to a neighbour, in the order
	// they were wired; Prefetch names their egress lines whether or not
	// they have work yet
	wired []int
	q     [][8]pktQueue
	// occupied bit c of port p: q[p][c] holds packets, so that settling a
	// port reads one byte instead of its eight queues' lines
	occupied []uint8
	sched    []pipeline.SPDWRR8 // per port, by value: three lines each
	// pause state obeyed on each egress port: paused until (ps), per class
	pausedUntil [][8]rtlmodel.Time
	// pauseEnd of a port: the earliest of its non-zero pausedUntil, 0 when
	// all are 0, so that a port without pauses is not scanned class by
	// class at every send
	pauseEnd []rtlmodel.Time
	// PFC frames waiting to go out on a port (sent before any data)
	pfcPending []uint8  // bit c: XOFF for class c pending
	pfcXon     []uint8  // bit c: XON pending
	work       []uint64 // bit p: port p has queued packets or PFC frames
	// xoffRefresh is, per ingress port, when the pause its last XOFF
	// asked for is half over (0: none to refresh); nextRefresh the
	// earliest of them (refreshXoff)
	xoffRefresh []rtlmodel.Time
	nextRefresh rtlmodel.Time
	// parked    bit p: port p waits for credits from its PHY; a credit
	// return (watch) or new work for the port unparks it
	parked []uint64
	// held bit p: every class port p holds packets of is paused, so that
	// serving it sends nothing until its pauseEnd or new work (markWork)
	held     []uint64
	watch    rtlmodel.Watch // credit returns on out
	arrivals rtlmodel.Watch // deliveries on in
	// hosted: the ingress pipes the MMU runs itself (pipes_hosted.go), in
	// pipe order, rx the deliveries on their inputs, by port, and rxOf
	// the pipe and input of each port (rxEntry)
	hosted     []*ingressPipe
	rx         rtlmodel.Watch
	rxOf       []uint32
	pipesReady pipeline.Bits // hosted pipes whose ready masks are not empty
	newWork    bool          // markWork ran since the serving scan began

	// counters inside the MMU, in lines its prefetch names, not objects
	// of their own
	enq, deq, trims, marks rtlmodel.Counter
	drops                  rtlmodel.Counter
	pfcSent, pfcRecv       rtlmodel.Counter
	buffered               uint64
	txBytes                []uint64 // per egress port, for INT
	onAdmit                func(egress, class int, depthBytes uint64, ect bool, v Verdict)
	shapers                []*pipeline.Shaper // per port, nil: line rate
	shapedUntil            []rtlmodel.Time    // a shaped port waits until then
	// DLB port quality is fed at every multiple of the sample window and
	// published to the pipes' balancers at the end of that edge
	dlb        bool
	quality    *PortQuality
	bands      *publishedBands
	nextSample rtlmodel.Time
	sampleTx   []uint64 // txBytes at the last sample
	// paused meters each (port, class) PFC paused, from its first pause
	// (pfc_paused.go); nil until a PFC frame pauses a class
	paused [][8]*rtlmodel.TimeMeter
	// trimDrops counts headers an earlier switch trimmed that this one
	// dropped: with the trims of every switch they account for the
	// trimmed headers the NICs do not receive
	trimDrops rtlmodel.Counter
}

// pktQueue is a FIFO of packets, a ring of a power-of-two size. Each slot
// keeps its packet's size beside the pointer, so the scheduler and the
// credit check need not read a descriptor to know the head's size: a
// descriptor waits in its queue long enough to leave the caches, and
// reading the new head's size at every dequeue was a miss that stalled
// the dequeue. Instead the dequeue prefetches the new head, which the
// port's next dequeue reads.
type pktQueue struct {
	buf       []queuedPkt
	head, n   int
	bytes     uint64
	headBytes uint32
}

// queuedPkt is a queue slot: a packet and its frame's size when queued.
type queuedPkt struct {
	p     *packet.Desc
	bytes uint32
}

func (q *pktQueue) push(p *packet.Desc) {
	if q.n == len(q.buf) {
		nb := make([]queuedPkt, max(8, 2*len(q.buf)))
		for i := 0; i < q.n; i++ {
			nb[i] = q.buf[(q.head+i)%len(q.buf)]
		}
		q.buf, q.head = nb, 0
	}
	q.buf[(q.head+q.n)&(len(q.buf)-1)] = queuedPkt{p: p, bytes: p.FrameBytes}
	if q.n == 0 {
		q.headBytes = p.FrameBytes
	}
	q.n++
	q.bytes += uint64(p.FrameBytes)
}

// pop takes the head; it returns its packet and its size as queued.
func (q *pktQueue) pop() (*packet.Desc, uint32) {
	e := q.buf[q.head]
	q.buf[q.head] = queuedPkt{}
	q.head = (q.head + 1) & (len(q.buf) - 1)
	q.n--
	q.bytes -= uint64(e.bytes)
	q.headBytes = 0
	if q.n > 0 {
		next := &q.buf[q.head]
		q.headBytes = next.bytes
		rtlmodel.Prefetch(unsafe.Pointer(next.p))
	} else {
		q.head = 0 // an emptied queue refills from its first slot
	}
	return e.p, e.bytes
}

// markWork notes that port has something to send; anything new for a port
// also ends its wait for credits, since a smaller frame may fit.
func (m *mmu) markWork(port int) {
	m.work[port>>6] |= 1 << uint(port&63)
	m.parked[port>>6] &^= 1 << uint(port&63)
	m.held[port>>6] &^= 1 << uint(port&63)
	m.newWork = true
}

// park stops serving port until credits come back or it gets new work.
func (m *mmu) park(port int) { m.parked[port>>6] |= 1 << uint(port&63) }

// Eval admits arrivals, then serves every port with work and a free PHY.
func (m *mmu) Eval(edge rtlmodel.Edge) rtlmodel.Wake {
	now := edge.Time
	if m.dlb {
		m.sampleDLB(now)
	}
	if now >= m.nextRefresh {
		m.refreshXoff(now)
	}
	pipesMore := len(m.hosted) > 0 && m.stepPipes(now)
	// only the pipes that delivered, in pipe order (every delivery wakes
	// the MMU, so all of them are of this edge)
	for {
		i, ok := m.arrivals.Next(now)
		if !ok {
			break
		}
		for {
			p, ok := m.in[i].Recv()
			if !ok {
				break
			}
			m.admit(p, now)
		}
	}
	for {
		port, ok := m.watch.Next(now)
		if !ok {
			break
		}
		m.parked[port>>6] &^= 1 << uint(port&63)
	}
	next := rtlmodel.Forever
	busy := false
	m.newWork = false
	for w := range m.work {
		// the ports of this word with work when the scan reaches it, less
		// those parked: a port parked for credits is passed over unless
		// a port served before it in the scan gives it work (markWork)
		snap := m.work[w]
		word := snap &^ m.parked[w]
		for word != 0 {
			b := bits.TrailingZeros64(word)
			word &^= 1 << uint(b)
			port := w<<6 | b
			if m.held[w]&(1<<uint(b)) != 0 {
				if m.pauseEnd[port] > now {
					// serving it would find every class it holds still
					// paused
					if t := m.pauseExpiry(port, now); t < next {
						next = t
					}
					continue
				}
				// a pause ended: serve it, and hold it again only if what
				// it holds is still paused
				m.held[w] &^= 1 << uint(b)
			}
			if m.serve(port, now) {
				busy = true
			}
			if t := m.pauseExpiry(port, now); t < next {
				next = t
			}
			word = snap &^ m.parked[w] & (^uint64(0) << uint(b) << 1)
		}
	}
	if busy || m.newWork || pipesMore {
		// a port given work while the others were served (a PFC resume
		// the buffer released) is served at the next edge, as is a hosted
		// pipe's frame left over
		return edge.Next()
	}
	if m.nextRefresh < next {
		next = m.nextRefresh
	}
	if m.dlb && m.nextSample < next && !m.dlbSettled() {
		next = m.nextSample
	}
	if next != rtlmodel.Forever {
		d := m.h.Domain()
		return rtlmodel.Wake(d.CycleAt(d.FirstEdgeAtOrAfter(next)))
	}
	return rtlmodel.Never
}

// admit runs the traffic manager's decision on one packet.
func (m *mmu) admit(p *packet.Desc, now rtlmodel.Time) {
	if p.Kind == packet.KindPFC {
		m.pfcRecv.Inc()
		m.obeyPFC(int(p.Ingress), p, now)
		m.sw.pool.Put(p)
		return
	}
	ect := m.sw.ect(p)
	var depth uint64
	if m.onAdmit != nil {
		depth = m.tm.QueueBytes(int(p.Egress), int(p.Class))
	}
	v := m.tm.Admit(int(p.Ingress), int(p.Egress), int(p.Class), int(p.FrameBytes), ect)
	if m.onAdmit != nil {
		m.onAdmit(int(p.Egress), int(p.Class), depth, ect, v)
	}
	if v.PFCXoff {
		m.pfcPending[p.Ingress] |= 1 << p.Class
		m.markWork(int(p.Ingress))
	}
	switch v.Action {
	case Drop:
		m.drops.Inc()
		if p.Trimmed {
			m.trimDrops.Inc()
		}
		m.sw.dropReason(v.Reason)
		m.sw.pool.Put(p)
		return
	case Trim:
		m.trims.Inc()
		p.Trimmed = true
		p.Class = uint8(m.trim.TrimClass)
		p.FrameBytes = uint32(m.trim.TrimBytes)
		if cut := uint32(p.HdrLen); p.FrameBytes < cut {
			// the header bytes past a frame cut inside them go, and the
			// descriptor keeps those after HdrLen zero
			clear(p.Hdr[p.FrameBytes:cut])
			p.HdrLen = uint8(p.FrameBytes)
		}
		m.sw.remarkClass(p, p.Class)
	}
	if v.MarkCE {
		m.marks.Inc()
		p.Marked = true
		m.sw.markCE(p)
	}
	eg := int(p.Egress)
	q := &m.q[eg][p.Class]
	head := q.n == 0
	if head {
		m.sched[eg].SetHead(int(p.Class), p.FrameBytes)
	}
	q.push(p)
	m.occupied[eg] |= 1 << p.Class
	m.enq.Inc()
	m.buffered++
	if head {
		m.markWork(eg)
	}
	// Behind a head, the packet changes nothing serving the port reads:
	// the heads, their sizes and so the scheduler's pick (Pick is the
	// same until Served) stay, so a port parked for credits or held by
	// pauses would only find the same again. It already has work.
}

// serve sends what port may send this edge; it reports whether the port
// could send more next edge.
func (m *mmu) serve(port int, now rtlmodel.Time) bool {
	out := m.out[port]
	if m.pfcPending[port] != 0 || m.pfcXon[port] != 0 {
		if !out.CanSendBytes(pfcFrameBytes) {
			m.park(port)
			return false
		}
		if m.pfcPending[port] != 0 {
			at := now + m.sw.pauseTime(port, 0xFFFF)/2
			m.xoffRefresh[port] = at
			m.nextRefresh = min(m.nextRefresh, at)
		}
		out.Send(m.sw.pfcFrame(port, m.pfcPending[port], m.pfcXon[port]))
		m.pfcSent.Inc()
		m.pfcPending[port], m.pfcXon[port] = 0, 0
		m.settle(port)
		return true
	}
	m.resume(port, now)
	c := m.sched[port].Pick()
	if c < 0 {
		// no class is eligible: what is queued is paused (Pick changes
		// nothing then), and stays so until a pause ends or markWork
		m.held[port>>6] |= 1 << uint(port&63)
		m.settle(port)
		return false
	}
	q := &m.q[port][c]
	if !out.CanSendBytes(int(q.headBytes)) {
		m.park(port) // a credit return wakes the MMU and unparks the port
		return false
	}
	if sh := m.shapers[port]; sh != nil {
		size := uint64(q.headBytes)
		if !sh.Conform(now, size) {
			m.shapedUntil[port] = sh.NextConformTime(now, size)
			return false
		}
		sh.Consume(now, size)
	}
	p, size := q.pop()
	if q.n == 0 {
		m.occupied[port] &^= 1 << uint(c)
	}
	m.sched[port].Served(c, size, q.headBytes)
	if m.tm.Release(int(p.Ingress), port, c, int(size)) {
		m.pfcXon[p.Ingress] |= 1 << uint(c)
		m.markWork(int(p.Ingress))
	}
	m.deq.Inc()
	m.buffered--
	m.txBytes[port] += uint64(size)
	if p.HasINT {
		m.pushINT(p, port, c, now)
	}
	out.Send(p)
	m.settle(port)
	if m.work[port>>6]&(1<<uint(port&63)) == 0 {
		return false
	}
	if m.pfcPending[port] == 0 && m.pfcXon[port] == 0 && !out.HasCredits(m.smallestHead(port)) {
		// nothing it holds fits in the credits left: the frame just sent
		// fills the PCS, so the next edge would find the same and park
		// it; parked now, the return that frees the PCS unparks it
		m.park(port)
		return false
	}
	return true
}

// smallestHead returns the smallest frame at the head of port's queues.
func (m *mmu) smallestHead(port int) int {
	least := uint32(math.MaxUint32)
	for occ := m.occupied[port]; occ != 0; occ &= occ - 1 {
		least = min(least, m.q[port][bits.TrailingZeros8(occ)].headBytes)
	}
	return int(least)
}

// settle clears the port's work bit when nothing is left to send.
func (m *mmu) settle(port int) {
	if m.pfcPending[port] != 0 || m.pfcXon[port] != 0 {
		return
	}
	if m.occupied[port] != 0 {
		return
	}
	m.work[port>>6] &^= 1 << uint(port&63)
}

// obeyPFC applies a PFC frame received on port: the classes it names stop
// for quanta × 512 bit times, or resume at once for quanta 0 (FACTS 2.7).
func (m *mmu) obeyPFC(port int, p *packet.Desc, now rtlmodel.Time) {
	pfc := p.Tail()
	for c := 0; c < 8; c++ {
		if pfc.PFCClasses&(1<<uint(c)) == 0 {
			continue
		}
		until := now + m.sw.pauseTime(port, pfc.PFCQuanta[c])
		m.notePause(port, c, now, until)
		m.pausedUntil[port][c] = until
		m.sched[port].SetPaused(c, pfc.PFCQuanta[c] != 0)
	}
	m.notePauseEnd(port)
	m.markWork(port)
}

// notePauseEnd sets the port's pauseEnd from its classes' pauses.
func (m *mmu) notePauseEnd(port int) {
	end := rtlmodel.Time(0)
	for _, until := range m.pausedUntil[port] {
		if until != 0 && (end == 0 || until < end) {
			end = until
		}
	}
	m.pauseEnd[port] = end
}

// resume lifts pauses that have expired.
func (m *mmu) resume(port int, now rtlmodel.Time) {
	if end := m.pauseEnd[port]; end == 0 || end > now {
		return // no pause, or none expired
	}
	for c, until := range m.pausedUntil[port] {
		if until != 0 && until <= now {
			m.pausedUntil[port][c] = 0
			m.sched[port].SetPaused(c, false)
		}
	}
	m.notePauseEnd(port)
}

// pauseExpiry returns the earliest time after now at which a pause or the
// port's shaper lets it send again.
func (m *mmu) pauseExpiry(port int, now rtlmodel.Time) rtlmodel.Time {
	t := rtlmodel.Forever
	if end := m.pauseEnd[port]; end > now {
		t = end // every pause ends at or after end
	} else if end != 0 {
		for _, until := range m.pausedUntil[port] {
			if until > now && until < t {
				t = until
			}
		}
	}
	if u := m.shapedUntil[port]; u > now && u < t {
		t = u
	}
	return t
}

// BlockedOn names a port that holds packets it cannot send.
func (m *mmu) BlockedOn() string {
	for w, word := range m.work {
		if word == 0 {
			continue
		}
		port := w<<6 | bits.TrailingZeros64(word)
		if !m.out[port].CanSend() {
			return "credits on " + m.out[port].Name()
		}
	}
	return ""
}

// intRateCode is the HPCC INT line-rate code of a port (FACTS 2.2 [R15]:
// 0=25G 1=50G 2=100G 3=200G 4=400G); 800G, which the record cannot name,
// takes code 5 in this model (E).
func intRateCode(lanes int) uint8 {
	switch lanes {
	case 1:
		return 2
	case 2:
		return 3
	case 4:
		return 4
	}
	return 5
}

// pushINT appends this hop's telemetry as the egress pipeline writes it:
// the dequeue time in ns (24 bits, wrapping), the port's transmitted bytes
// in 128 B units (20 bits, wrapping) and the queue left behind in 80 B
// units (17 bits, saturating).
func (m *mmu) pushINT(p *packet.Desc, port, class int, now rtlmodel.Time) {
	q := m.tm.QueueBytes(port, class) / packet.INTQLenUnit
	p.EditTail().INT.Push(packet.INTHop{
		LineRate: intRateCode(m.sw.ports[port].Lanes.Lanes()),
		Time:     uint32(uint64(now)/1000) & (1<<24 - 1),
		Bytes:    uint32(m.txBytes[port]/packet.INTByteUnit) & (1<<20 - 1),
		QLen:     uint32(min(q, 1<<17-1)),
	})
}

// sampleDLB feeds every port's bytes sent since the last sample and its
// queued bytes to the port quality (DLB) at the sample points, the
// multiples of the sample window, each taken at the first edge at or after
// it, and publishes the bands to the pipes (publishedBands). The MMU wakes for every sample point while a sample
// would change the quality (dlbSettled); once it would not, the points it
// sleeps through are skipped, which changes nothing, so the quality is the
// same whether the MMU is evaluated at every edge or only when it has work.
func (m *mmu) sampleDLB(now rtlmodel.Time) {
	w := m.sw.cfg.DLB.SampleWindow
	sampled := false
	for now >= m.nextSample {
		for port := range m.txBytes {
			m.quality.Update(port, m.txBytes[port]-m.sampleTx[port], m.tm.PortBytes(port))
			m.sampleTx[port] = m.txBytes[port]
		}
		sampled = true
		m.nextSample += w
		if m.nextSample <= now && m.dlbSettled() {
			m.nextSample = (now/w + 1) * w
		}
	}
	if sampled {
		m.bands.publish(m.quality, len(m.txBytes))
	}
}

// dlbSettled reports whether a sample now would leave the port quality as
// it is: no port sent since the last sample, every queue is as sampled, and
// no load average would decay further.
func (m *mmu) dlbSettled() bool {
	q := m.quality
	shift := m.sw.cfg.DLB.LoadShift
	for port := range m.txBytes {
		if m.txBytes[port] != m.sampleTx[port] || q.LoadEWMA(port)>>shift != 0 ||
			uint64(q.QueueBytes(port)) != sat32(m.tm.PortBytes(port)) {
			return false
		}
	}
	return true
}

// refreshXoff sends XOFF again to each ingress port whose last XOFF's
// pause is half over while its lossless classes are still paused: a
// pause lasts only the quanta its frame gives (65,535, 83.9 us at 400G),
// and a sender whose pause ran out while the buffer still held its
// classes above XON would fill their headroom and overflow it (IEEE
// 802.1Qbb: the PFC sender refreshes the pause while the condition
// holds). An ingress port no longer paused is left alone; its XON went
// when it fell below the threshold.
func (m *mmu) refreshXoff(now rtlmodel.Time) {
	next := rtlmodel.Forever
	for port, at := range m.xoffRefresh {
		if at == 0 {
			continue
		}
		if at > now {
			next = min(next, at)
			continue
		}
		m.xoffRefresh[port] = 0
		var classes uint8
		for c := 0; c < m.tm.nClasses; c++ {
			if m.tm.Lossless(c) && m.tm.Paused(port, c) {
				classes |= 1 << uint(c)
			}
		}
		if classes != 0 {
			m.pfcPending[port] |= classes
			m.markWork(port)
		}
	}
	m.nextRefresh = next
}
