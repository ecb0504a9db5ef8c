package serdes

import (
	"fmt"
	"unsafe"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// PhyLink is the physical link between two ports as an rtlmodel component
// in the transmitter's clock domain. It takes frames from the transmitting
// MAC (a credited rtlmodel link, at most one frame in the PCS at a time;
// each frame's taking edge is decided when the MAC sends it, see take),
// serialises them at the port's exact rate with the carried remainder,
// adds propagation and the RX FEC fill and pipeline, and delivers each
// frame to the receiving MAC at the first receiver edge at or after the
// frame is decoded (or, for a cut-through receiver, its headers are). Frames an uncorrectable codeword hit arrive with
// Timing.BadFCS set; the receiving MAC (RxMAC) drops and counts them.
type PhyLink[T any] struct {
	// what taking a frame reads first comes first, in one cache line,
	// then the wire's three (Wire)
	dom       *rtlmodel.Domain // h's, read at every frame without going through h
	out       *rtlmodel.Link[RxFrame[T]]
	size      func(T) int
	tail      func(T) (tail rtlmodel.Time, ingressLanes int) // SetTail; nil: none
	lastStart rtlmodel.Time
	lastTake  rtlmodel.Time    // edge the last frame was taken at, once the wire started
	bytes     rtlmodel.Counter // its count first, still in that line

	wire Wire // by value, next to the link state a frame reads; counts the frames
	h    *rtlmodel.Handle
}

// NewPhyLink registers a physical link in domain d under path. size gives
// a frame's length in bytes from destination address to FCS. Connect its
// input and output with Connect before the run.
func NewPhyLink[T any](e *rtlmodel.Engine, d *rtlmodel.Domain, path string, cfg WireConfig, size func(T) int) (*PhyLink[T], error) {
	w, err := NewWire(cfg)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	p := &PhyLink[T]{wire: *w, size: size}
	if p.h, err = e.Add(d, path, p); err != nil {
		return nil, err
	}
	p.dom = d
	st := e.Stats()
	st.Own(&p.wire.frames, path+"/frames", "frames", "frames sent on the wire")
	st.Own(&p.bytes, path+"/bytes", "bytes", "frame bytes sent on the wire")
	st.Own(&p.wire.bad, path+"/fec_uncorrectable_frames", "frames", "frames hit by an uncorrectable codeword")
	return p, nil
}

// Handle returns the component's handle, to connect links to it.
func (p *PhyLink[T]) Handle() *rtlmodel.Handle { return p.h }

// Out returns the link to the receiving MAC (Connect's out).
func (p *PhyLink[T]) Out() *rtlmodel.Link[RxFrame[T]] { return p.out }

// Wire returns the wire model (timings, lane state, FEC sampler).
func (p *PhyLink[T]) Wire() *Wire { return &p.wire }

// Bytes returns the frame bytes sent on the wire (its statistic
// path/bytes; Wire().Frames counts the frames).
func (p *PhyLink[T]) Bytes() uint64 { return p.bytes.Value() }

// DegradeAtCycle fails lanes of the port at a cycle of the link's domain:
// frames whose first bit leaves at or after that edge run at the degraded
// rate (for example 400G to 200G when 2 of 4 lanes fail).
func (p *PhyLink[T]) DegradeAtCycle(cycle uint64, failedLanes int) error {
	return p.wire.DegradeAt(p.h.Domain().EdgeTime(cycle), failedLanes)
}

// SetTail makes the link ask each frame when its tail is decoded at the
// ingress of a cut-through switch and how many lanes that ingress port
// has: when the link's own port has more (it is faster), it waits for the
// whole frame; see Wire.TransmitAfter. fn should be a function, not a
// closure: the link calls it for every frame, and a closure is one more
// object to read first.
func (p *PhyLink[T]) SetTail(fn func(T) (tail rtlmodel.Time, ingressLanes int)) { p.tail = fn }

// Connect sets the link from the transmitting MAC and the one to the
// receiving MAC. in should carry credits so the MAC waits for the PCS;
// out must not (a wire is not flow-controlled), and carries one frame per
// edge. A frame reaches the receiver no sooner than in's latency and the
// wire's least latency after the MAC's edge that sends it, which Connect
// declares as out's lookahead (rtlmodel.Link.SetLookahead): between
// partitions, the receiver's device runs that far past the sender's.
func (p *PhyLink[T]) Connect(in *rtlmodel.Link[T], out *rtlmodel.Link[RxFrame[T]]) error {
	p.out = out
	in.TakeOnSend(phyTaker[T]{p}) // the link calls take; the PHY keeps no reference to it
	if out == nil {
		return nil
	}
	if out.Format == nil {
		out.Format = p.formatRx // traces show the frame's times at both ends
	}
	return out.SetLookahead(in.MinLatency() + p.wire.MinLatency())
}

// phyTaker is the PHY as its input link's Taker: a pointer, so the link
// holds it in its own fields.
type phyTaker[T any] struct{ p *PhyLink[T] }

// TakeSent is PhyLink.take.
func (t phyTaker[T]) TakeSent(f T, visible rtlmodel.Time) rtlmodel.Time { return t.p.take(f, visible) }

// take is the PCS taking a frame, decided when the MAC sends it: at the
// first edge at which the frame is visible, the previous frame has started
// on the wire (the PCS holds one) and no frame was taken yet (one per
// edge). Every input of that decision is known at the send, so the frame's
// whole timing is computed then and nothing waits for an Eval; a PHY that
// took each frame at an Eval of its own would take it at the same edge.
func (p *PhyLink[T]) take(f T, visible rtlmodel.Time) rtlmodel.Time {
	d := p.dom
	at := visible
	if p.lastStart > at+p.wire.txLatency {
		at = d.FirstEdgeAtOrAfter(p.lastStart - p.wire.txLatency)
	}
	if p.wire.started && at < p.lastTake+d.Period() { // a frame was taken before
		at = p.lastTake + d.Period()
	}
	p.lastTake = at
	n := p.size(f)
	var tail rtlmodel.Time
	whole := false
	if p.tail != nil {
		var inLanes int
		tail, inLanes = p.tail(f)
		whole = p.wire.cfg.Lanes.Lanes() > inLanes
	}
	t := p.wire.TransmitAfter(at, n, tail, whole)
	p.lastStart = t.FirstBitOut
	p.bytes.Add(uint64(n))
	rx, ok := t.rx()
	if !ok {
		p.h.Fail(fmt.Errorf("%s: a %d-byte frame takes %v to come in and %v to be decoded, beyond the %v a receiver's timing holds",
			p.h.Path(), n, t.LastBitOut-t.FirstBitOut, t.Decoded-t.FirstBitIn, MaxRxDuration))
	}
	p.out.SendAtFrom(RxFrame[T]{Frame: f, Timing: rx}, t.Ready, at)
	return at
}

// Eval has nothing to do: frames are taken when they are sent (take).
func (p *PhyLink[T]) Eval(rtlmodel.Edge) rtlmodel.Wake { return rtlmodel.Never }

// RxMAC is the receiving MAC's frame check: it drops frames with a bad FCS
// (counting them) and passes good frames on.
type RxMAC[T any] struct {
	h       *rtlmodel.Handle
	in      *rtlmodel.Link[RxFrame[T]]
	out     *rtlmodel.Link[RxFrame[T]]
	good    *rtlmodel.Counter
	dropped *rtlmodel.Counter
}

// NewRxMAC registers a receiving MAC in domain d under path.
func NewRxMAC[T any](e *rtlmodel.Engine, d *rtlmodel.Domain, path string) (*RxMAC[T], error) {
	m := &RxMAC[T]{}
	var err error
	if m.h, err = e.Add(d, path, m); err != nil {
		return nil, err
	}
	m.good = e.Stats().Counter(path+"/frames_ok", "frames", "frames received with a good FCS")
	m.dropped = e.Stats().Counter(path+"/fcs_drops", "frames", "frames dropped for a bad FCS")
	return m, nil
}

// Handle returns the component's handle.
func (m *RxMAC[T]) Handle() *rtlmodel.Handle { return m.h }

// Connect sets the link from the PHY and the link to the MAC's client.
func (m *RxMAC[T]) Connect(in, out *rtlmodel.Link[RxFrame[T]]) {
	m.in, m.out = in, out
	if out != nil && out.Format == nil {
		out.Format = in.Format // the frames passed on render as they came
	}
}

// Dropped returns the frames dropped for a bad FCS.
func (m *RxMAC[T]) Dropped() uint64 { return m.dropped.Value() }

// Received returns the frames passed on.
func (m *RxMAC[T]) Received() uint64 { return m.good.Value() }

// Eval checks every arrived frame.
func (m *RxMAC[T]) Eval(edge rtlmodel.Edge) rtlmodel.Wake {
	for {
		f, ok := m.in.Peek()
		if !ok {
			return rtlmodel.Never
		}
		if !f.Timing.BadFCS() && !m.out.CanSend() {
			return edge.Next()
		}
		m.in.Recv()
		if f.Timing.BadFCS() {
			m.dropped.Inc()
			continue
		}
		m.good.Inc()
		m.out.Send(f)
	}
}

// Prefetch prefetches the PHY's lines, what taking a frame reads, for the
// sending component's rtlmodel.Prefetcher.
func (p *PhyLink[T]) Prefetch() {
	rtlmodel.PrefetchLines(unsafe.Pointer(p), phyHotBytes)
}

// PrefetchOut prefetches the lines of the link to the receiving MAC that
// a frame's take writes (read the PHY first: Prefetch, a level before).
func (p *PhyLink[T]) PrefetchOut() {
	if p.out != nil {
		p.out.Prefetch()
	}
}

// PrefetchOutQueue prefetches the slot of that link's queue the next frame
// goes to (read the link first: PrefetchOut, a level before).
func (p *PhyLink[T]) PrefetchOutQueue() {
	if p.out != nil {
		p.out.PrefetchQueue()
	}
}

// phyHotBytes is the length of what taking a frame reads of a PhyLink: up
// to its wire's FEC failure probability. A PhyLink is 384 bytes, a size
// class of the Go allocator that is a whole number of cache lines, so
// every PhyLink starts a line and those bytes are its first four lines
// (TestPhyLinkHotLines).
const phyHotBytes = unsafe.Offsetof(PhyLink[any]{}.wire) + unsafe.Offsetof(Wire{}.sampler) +
	unsafe.Offsetof(FailureSampler{}.p) + unsafe.Sizeof(FailureSampler{}.p)
