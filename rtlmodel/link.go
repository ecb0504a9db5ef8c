package rtlmodel

import (
	"fmt"
	"math"
)

// LinkConfig describes a point-to-point channel between two components.
type LinkConfig struct {
	// Latency in cycles of the receiving domain, at least 1: an item sent
	// at a sender edge is visible at the receiver's first edge after it,
	// plus Latency-1 further receiver cycles.
	Latency uint64
	// Width is the number of items the sender may send per edge (>= 1).
	Width int
	// Credits, when > 0, is the receive buffer size: the sender spends a
	// credit per item and gets it back CreditLatency sender cycles after
	// the receiver takes the item. 0 means no flow control.
	Credits int
	// CreditLatency is the reverse path latency in sender cycles (>= 1
	// when Credits > 0).
	CreditLatency uint64
	// WidthBytes, for a link made with NewByteLink, is the bytes per sender
	// cycle the channel must sustain, and MaxItemBytes the largest item:
	// Credits then count bytes, each item costing its size. A serial port
	// whose frames take many cycles each needs bytes in flight, not items:
	// counting items would let a paused port drain a whole pipeline of
	// frames.
	WidthBytes, MaxItemBytes int
}

// flight is an item with the time it becomes visible to the receiver.
type flight[T any] struct {
	at   Time
	item T
}

// creditReturn is a number of credits with the time the sender sees them.
type creditReturn struct {
	at Time
	n  int
}

// Link carries items of type T from one component to another with a fixed
// latency, a per-cycle width and optional credit-based flow control. Only
// the sender calls CanSend, Send and Credits; only the receiver calls Peek
// and Recv. An item or credit is queued with the time it becomes visible,
// always after the edge that sent it, so the link needs no commit unless
// transfers are traced (then it commits, and the trace comes out in link
// order whatever the order of evaluation).
type Link[T any] struct {
	// What a send, a delivery, a Recv or a credit return reads comes
	// first, in the link's first cache lines: a link is touched once or
	// twice per item by each end, long after the rest of the fabric has
	// evicted it, and each further line it spans is one more miss.
	// line 0
	e                 *Engine
	width, creditPool int32 // cfg.Width and cfg.Credits
	sentAt            Time  // edge of the last Send
	sent              int   // items sent at sentAt
	avail             int   // credits the sender holds
	zeroSince         Time
	lastAt            Time // arrival of the newest item in q
	toPhase           Time // with toPeriod (line 2), the receiver's domain's
	// line 1
	creditWake Time
	told       Time // the last arrival time its receiver was told of (woken or its watch told)
	// latencyPs (creditPs) is the delay of an item (a credit return) from
	// the edge that sends it when both ends share a domain; otherwise the
	// Latency-1 receiver (CreditLatency-1 sender) cycles after the first
	// edge of the other end after it (no division, and no read of cfg,
	// per item)
	latencyPs, creditPs Time
	rxDelay             Time // a receive pipeline every item crosses before it is visible
	sameDomain          bool
	// across: the ends are in different partitions, which run up to a
	// lookahead apart, so every delivery and credit return must come a
	// whole lookahead after the edge that makes it
	across bool
	// creditWanted: the sender found too few credits with none on their
	// way back, so the next return wakes it (returns wake a sender only
	// when it has found a shortage since it was last woken for one)
	creditWanted bool
	// short: the sender found credits left but fewer than its next item
	// costs (a byte-credited link), since zeroSince plus a cycle
	short bool
	// listed: in ahead's list of links with items to read ahead (ahead:
	// the receiver's partition when it reads this link ahead, else nil)
	listed bool
	// pull: a link between partitions, whose receiver's partition tells
	// its receiver of each arrival when a window that holds it begins
	// (tellArrivals), not its sender when the item is sent
	pull  bool
	ahead *part
	size  func(T) int // byte credits: an item's cost; nil: one credit per item
	// line 2
	taker        Taker[T]   // a receiver that takes on send; nil: none
	toCS, fromCS *compState // the ends' states, to wake them
	fromDom      *Domain
	// toPeriod and toPhase (line 0) are the receiver's domain's, kept
	// here so that a delivery does not read the receiver's Domain
	toPeriod          Time
	arrivals, credits *Watch // told of deliveries and credit returns; nil: nobody
	// line 3
	q               Queue[flight[T]]
	arrIdx, credIdx int32
	// minAcross: between partitions, the least time after the sending
	// edge an item may arrive (its lookahead, partNeighbours)
	minAcross Time
	// line 4
	returns   Queue[creditReturn] // restarts at its first slot when drained
	transfers Counter             // its count first, still in line 4

	toDom *Domain

	name      string
	id        int
	from, to  *Handle
	cfg       LinkConfig
	staged    Queue[flight[T]] // at 0: the fixed latency applies
	stagedRet int
	dirty     bool
	starved   Counter

	// Format renders an item for traces; nil uses fmt.Sprint.
	Format func(T) string

	readItem     func(T) uint64 // reads an item ahead of use (ReadAheadWith); nil: the queue entry only
	prefetchItem func(T)        // prefetches what an item points to (PrefetchWith); nil: nothing

	traceStage string // the receiver's name in traces (TraceDelayAs); "": its path

	lookahead Time // SetLookahead's; 0: the engine's

	tracing T // the item the transfer hooks are told of, while they run
	// traceKeep: the items the transfer hooks are told of (KeepTransfers);
	// nil: all of them
	traceKeep func(T) bool
}

// Taker is a receiver that takes every item of a link when it is sent
// (Link.TakeOnSend).
type Taker[T any] interface {
	// TakeSent is told the item and the time it becomes visible, and
	// returns the receiver edge at which the receiver takes it (at or
	// after visible, and never before the previous item's).
	TakeSent(v T, visible Time) (taken Time)
}

// TakerFunc is a function as a Taker.
type TakerFunc[T any] func(v T, visible Time) (taken Time)

// TakeSent calls f.
func (f TakerFunc[T]) TakeSent(v T, visible Time) Time { return f(v, visible) }

// TakeOnSend makes the receiver take every item when it is sent instead of
// at an edge of its own (Taker). The credits come back from the taking
// edge as if the receiver had called Recv there, and the receiver is not
// woken. It is for a receiver whose every decision is a function of the
// arrival times and its own state, read by nobody else before the taking
// edge (a PHY that serialises frames in order): it is then exactly the
// component that waits for each item, without an Eval per item. A Taker
// that is a pointer to the receiver is called without reading anything
// else first (a function value is one more object, out of the caches by
// the time the link calls it). Call it before the run; Peek and Recv then
// find nothing.
func (l *Link[T]) TakeOnSend(t Taker[T]) { l.taker = t }

// DelayArrivals makes every item visible cycles receiver cycles later than
// the link would deliver it: a fixed receive pipeline the receiver would
// otherwise model with a queue of its own (and one more Eval per item).
// Call it before the run.
func (l *Link[T]) DelayArrivals(cycles uint64) {
	l.rxDelay = Time(cycles) * l.toDom.period
	l.noteTraceLag()
}

// TraceDelayAs makes the link's transfer events (Hooks.OnTransfer) name
// stage as the receiver and give each item's arrival before the delay of
// DelayArrivals: for a receiver that hosts the stage the delay stands for
// (a traffic manager running the ingress pipeline), whose hand-off from
// the stage to itself it reports with Engine.NoteTransfer, so that a
// trace shows the stage as it does where the stage is a component of its
// own. What the receiver sees and when does not change. The hand-off
// comes up to the delay after its send time, which Engine.TraceComplete
// allows for.
func (l *Link[T]) TraceDelayAs(stage string) {
	l.traceStage = stage
	l.noteTraceLag()
}

// noteTraceLag tells the engine how late the receiver may report a
// hosted stage's hand-off (TraceDelayAs), whichever of DelayArrivals and
// TraceDelayAs comes first.
func (l *Link[T]) noteTraceLag() {
	if l.traceStage != "" {
		e := l.to.e
		e.traceLag = max(e.traceLag, l.rxDelay)
	}
}

// WatchArrivals reports every delivery on this link to w under index idx,
// at the receiver edge where the item becomes visible. Only the receiver
// uses w.
func (l *Link[T]) WatchArrivals(w *Watch, idx int) {
	checkIndex(idx)
	l.arrivals, l.arrIdx = w, int32(idx)
	w.bind(l.e, l.toCS)
}

// WatchCredits reports credit returns on this link to w under index idx,
// at the sender edge where the credits become usable, instead of waking
// the sender for them: the returns it would be woken for, those after it
// found too few credits (wantCredits). Only the sender uses w.
func (l *Link[T]) WatchCredits(w *Watch, idx int) {
	checkIndex(idx)
	l.credits, l.credIdx = w, int32(idx)
	w.bind(l.e, l.fromCS)
}

// linkRingStart is the most items a link's rings (in flight, staged and
// credit returns) have room for before they first grow.
const linkRingStart = 32

// NewLink connects from (sender) to to (receiver). It is an error for a
// credit pool to be smaller than the round trip it must cover,
// Width × ceil((Latency·rx period + CreditLatency·tx period) / tx period)
// items, because the link could then never run at full rate.
func NewLink[T any](name string, from, to *Handle, cfg LinkConfig) (*Link[T], error) {
	if from == nil || to == nil || from.e != to.e {
		return nil, fmt.Errorf("link %s: endpoints must be components of one engine", name)
	}
	e := from.e
	if e.started {
		return nil, fmt.Errorf("link %s: created after the run started", name)
	}
	if cfg.Latency < 1 {
		return nil, fmt.Errorf("link %s: latency %d cycles; a link needs at least 1", name, cfg.Latency)
	}
	if cfg.Width < 1 {
		return nil, fmt.Errorf("link %s: width %d; a link carries at least 1 item per cycle", name, cfg.Width)
	}
	if cfg.Width > math.MaxInt32 || cfg.Credits > math.MaxInt32 {
		return nil, fmt.Errorf("link %s: width %d or credit pool %d beyond %d", name, cfg.Width, cfg.Credits, math.MaxInt32)
	}
	if cfg.Credits < 0 {
		return nil, fmt.Errorf("link %s: negative credit pool %d", name, cfg.Credits)
	}
	if cfg.Credits > 0 {
		if cfg.CreditLatency < 1 {
			return nil, fmt.Errorf("link %s: credit return latency %d cycles; it needs at least 1", name, cfg.CreditLatency)
		}
		if need := CreditRoundTrip(cfg, from.Domain(), to.Domain()); cfg.Credits < need {
			if cfg.WidthBytes > 0 {
				return nil, fmt.Errorf("link %s: credit pool of %d bytes is too small for its round trip: %d bytes per cycle × (latency %d rx cycles + credit latency %d tx cycles) + one %d-byte item needs %d",
					name, cfg.Credits, cfg.WidthBytes, cfg.Latency, cfg.CreditLatency, cfg.MaxItemBytes, need)
			}
			return nil, fmt.Errorf("link %s: credit pool of %d is too small for its round trip: width %d × (latency %d rx cycles + credit latency %d tx cycles) needs %d credits",
				name, cfg.Credits, cfg.Width, cfg.Latency, cfg.CreditLatency, need)
		}
	}
	l := &Link[T]{name: name, id: e.newElemID(), e: e, from: from, to: to, cfg: cfg,
		width: int32(cfg.Width), creditPool: int32(cfg.Credits), toCS: to.cs, fromCS: from.cs, toDom: to.cs.dom, fromDom: from.cs.dom, toPeriod: to.cs.dom.period, toPhase: to.cs.dom.phase,
		avail: cfg.Credits, sentAt: Forever, creditWake: Forever}
	// the rings start at what the link can hold at most, up to
	// linkRingStart items, and double from there as they fill: most links
	// of a fabric carry a few items at a time however wide and long they
	// are, and a busy one reaches its depth early in the run
	inflight := cfg.Width * int(cfg.Latency+1)
	l.staged = NewQueue[flight[T]](min(cfg.Width, linkRingStart))
	itemCredits := cfg.Credits
	if cfg.WidthBytes > 0 {
		itemCredits = 0 // byte credits say nothing of the item count; the queue grows as needed
	}
	l.q = NewQueue[flight[T]](min(max(inflight, itemCredits), linkRingStart))
	l.returns = NewQueue[creditReturn](min(int(cfg.Latency+cfg.CreditLatency+1), linkRingStart))
	l.transfers = Counter{metricBase: &metricBase{name + "/transfers", "items", "items sent over the link"}}
	e.stats.add(&l.transfers)
	if cfg.Credits > 0 {
		l.starved = Counter{metricBase: &metricBase{name + "/credit_starved", "cycles",
			"sender cycles that began with no credit, or with less than the item waiting costs, counted when credits return"}}
		e.stats.add(&l.starved)
	}
	if from.cs.dom == to.cs.dom {
		l.sameDomain = true
		l.latencyPs = Time(cfg.Latency) * from.cs.dom.period
		l.creditPs = Time(cfg.CreditLatency) * from.cs.dom.period
	} else {
		l.latencyPs = Time(cfg.Latency-1) * to.cs.dom.period
		l.creditPs = Time(cfg.CreditLatency-1) * from.cs.dom.period
	}
	if from.cs.clk.part != to.cs.clk.part {
		l.ahead, l.pull = to.cs.clk.part, true
	}
	l.across = from.cs.clk.part != to.cs.clk.part
	e.links = append(e.links, l)
	return l, nil
}

// linkInfo is what the watchdog needs of a link of any item type.
type linkInfo interface {
	Name() string
	Pending() int
	waitingOn() string
	// parts returns the partitions of the sender and the receiver
	parts() (from, to *part)
	// lookaheads, for a link between partitions, fixes and returns the
	// least time after a sender edge its items arrive, and whether it
	// returns credits (which come the engine's lookahead after the
	// receiver's edge); window is the engine's lookahead
	lookaheads(window Time) (items Time, credits bool)
}

func (l *Link[T]) parts() (from, to *part) { return l.fromCS.part, l.toCS.part }

// NewByteLink is NewLink for a link whose credits count bytes: size gives
// an item's cost, cfg.WidthBytes and cfg.MaxItemBytes size the round trip.
func NewByteLink[T any](name string, from, to *Handle, cfg LinkConfig, size func(T) int) (*Link[T], error) {
	if cfg.WidthBytes < 1 || cfg.MaxItemBytes < 1 || size == nil || cfg.Credits < 1 {
		return nil, fmt.Errorf("link %s: a byte-credited link needs WidthBytes, MaxItemBytes, Credits and a size function", name)
	}
	l, err := NewLink[T](name, from, to, cfg)
	if err != nil {
		return nil, err
	}
	l.size = size
	return l, nil
}

// cost is what v spends of the credit pool.
func (l *Link[T]) cost(v T) int {
	if l.size == nil {
		return 1
	}
	return l.size(v)
}

// Name returns the link's name.
func (l *Link[T]) Name() string { return l.name }

// Config returns the link's configuration.
func (l *Link[T]) Config() LinkConfig { return l.cfg }

// From returns the sender.
func (l *Link[T]) From() *Handle { return l.from }

// To returns the receiver.
func (l *Link[T]) To() *Handle { return l.to }

func (l *Link[T]) sentNow() int {
	if l.sentAt != l.e.now {
		return 0
	}
	return l.sent
}

// Send puts v on the link with the link's fixed latency; it is a
// modelling error when CanSend is false.
func (l *Link[T]) Send(v T) { l.send(v, 0) }

// SendAt puts v on the link to arrive at the receiver's first edge at or
// after at, for channels whose delay varies per item (a serial wire whose
// frames take their exact serialisation time). The arrival is never earlier
// than the fixed latency allows nor earlier than the previous item's: a
// link delivers in order.
func (l *Link[T]) SendAt(v T, at Time) {
	if at == 0 {
		at = 1
	}
	l.send(v, at)
}

func (l *Link[T]) send(v T, at Time) {
	if l.sentNow() >= int(l.width) {
		l.e.fail(fmt.Errorf("link %s: more than %d items sent in one cycle at %v", l.name, l.cfg.Width, l.e.now))
		return
	}
	if l.creditPool > 0 {
		c := l.cost(v)
		if l.avail < c {
			l.drainCredits()
		}
		if l.avail < c {
			l.e.fail(fmt.Errorf("link %s: send without credit at %v", l.name, l.e.now))
			return
		}
		if l.short {
			// a smaller item than the one the sender was short for: the
			// cycles since it found too few, up to this one, were starved
			if p := l.fromDom.period; l.e.now > l.zeroSince+p {
				l.starved.v += uint64((l.e.now-l.zeroSince)/p) - 1
			}
			l.short = false
		}
		l.avail -= c
		if l.avail == 0 {
			l.zeroSince = l.e.now
		}
		if l.returns.n > 0 && l.returns.Front().at <= l.e.now {
			// take in the returns that have come: a sender that holds
			// plenty drains only when short, and a burst of small frames
			// would otherwise pile their returns up and slide the ring
			// through many lines (drainCredits counts no starved cycle
			// for a return that came by the edge the sender last spent at)
			l.drainCredits()
		}
	}
	if l.sentAt != l.e.now {
		l.sentAt, l.sent = l.e.now, 0
	}
	l.sent++
	if l.e.hooks.transfer == nil || l.passesOver(v) {
		// Nobody traces transfers (or this one): deliver now. The item is
		// visible only from its arrival, after this edge, so no Eval of
		// this edge can tell it from one delivered at the commit.
		l.deliver(l.e, at, v, l.e.now)
		return
	}
	l.staged.Push(flight[T]{at: at, item: v})
	l.touch()
}

// fixedArrival is the arrival, at the fixed latency, of an item sent at now.
func (l *Link[T]) fixedArrival(now Time) Time {
	if l.sameDomain {
		return now + l.latencyPs
	}
	at := firstEdgeAfter(now, l.toPhase, l.toPeriod)
	return at + l.latencyPs
}

// SendAtFrom is SendAt for an item that leaves at the sender's edge from,
// later than now: a TakeOnSend receiver passing on, when it is sent, what
// it will send at the edge it takes it. Items must be sent in order of
// from, at most Width per edge.
func (l *Link[T]) SendAtFrom(v T, at, from Time) {
	if at == 0 {
		at = 1
	}
	if l.sentAt == from && l.sent >= int(l.width) || l.sentAt != Forever && from < l.sentAt {
		l.e.fail(fmt.Errorf("link %s: item sent at %v after one at %v, or more than %d at one edge", l.name, from, l.sentAt, l.cfg.Width))
		return
	}
	if l.sentAt != from {
		l.sentAt, l.sent = from, 0
	}
	l.sent++
	l.deliver(l.e, at, v, from)
}

// deliver queues an item sent at the edge from for the receiver (asked
// for at, 0 for the fixed latency), wakes it and tells its watch.
func (l *Link[T]) deliver(e *Engine, asked Time, v T, from Time) {
	at := l.fixedArrival(from)
	if asked != 0 {
		at = max(firstEdgeAtOrAfter(asked, l.toPhase, l.toPeriod), at)
	}
	at = max(at, l.lastAt)
	l.lastAt = at
	at += l.rxDelay
	if e.hooks.transfer != nil && (l.traceKeep == nil || l.traceKeep(v)) {
		// (this block keeps its old line count, so that the PGO
		// profile still finds the calls below it)
		l.traceTransfer(e, v, from, at)
	}
	if l.taker != nil {
		taken := l.taker.TakeSent(v, at)
		l.transfers.v++
		e.noteProgress(1)
		if l.creditPool > 0 {
			l.returnCredits(e, taken, l.cost(v))
		}
		return
	}
	if l.across && at < e.now+l.minAcross {
		e.tooSoon(l.toCS, at, "link ", l.name, l.minAcross)
	}
	l.q.Push(flight[T]{at: at, item: v})
	if l.ahead != nil && !l.listed {
		l.listed = true
		l.ahead.arriving = append(l.ahead.arriving, l)
	}
	if p := l.ahead; l.pull && e.next != nil {
		// the receiver's partition tells the receiver when the window that
		// holds the arrival begins, in state it is about to use; here it
		// need only learn that it has work then
		if at < e.next[p.index] {
			e.next[p.index] = at
		}
	} else {
		l.tell(e, at)
	}
	l.transfers.v++
	e.noteProgress(1)
}

// traceTransfer tells the transfer hooks of an item sent at from and
// delivered at at: to the stage named by TraceDelayAs, before the delay,
// if there is one.
func (l *Link[T]) traceTransfer(e *Engine, v T, from, at Time) {
	to, arrive := l.to.cs.path, at
	if l.traceStage != "" {
		to, arrive = l.traceStage, at-l.rxDelay
	}
	// the engine's one event, and the item in the link, so that a
	// transfer the listeners pass over costs no allocation
	l.tracing = v
	ev := &e.traceEv
	*ev = TransferEvent{Link: l.name, From: l.from.cs.path, To: to,
		Domain: l.from.cs.dom.name, Cycle: l.from.cs.dom.CycleAt(from), Time: from, Arrive: arrive, src: l}
	e.hooks.fireTransfer(ev)
	*ev = TransferEvent{}
	var none T
	l.tracing = none
}

// tracedValue returns the item being sent, boxed (TransferEvent.Value).
func (l *Link[T]) tracedValue() any { return l.tracing }

// renderTraced renders the item being sent (TransferEvent.Item).
func (l *Link[T]) renderTraced() string { return l.format(l.tracing) }

// tell wakes the receiver (or tells its watch, which wakes it) for an item
// arriving at at, unless it was told of that time already: arrivals on a
// link never go back in time.
func (l *Link[T]) tell(e *Engine, at Time) {
	if at <= l.told {
		return
	}
	l.told = at
	if l.arrivals != nil {
		l.arrivals.add(at, int(l.arrIdx)) // the watch wakes the receiver
		return
	}
	e.wakeFor(l.toCS, at)
}

// Peek returns the oldest delivered item without taking it.
func (l *Link[T]) Peek() (T, bool) {
	if l.q.Len() == 0 || l.q.Front().at > l.e.now {
		var zero T
		return zero, false
	}
	return l.q.Front().item, true
}

// Recv takes the oldest delivered item; with credits, its credit starts
// back to the sender at this edge (usable CreditLatency sender cycles on).
func (l *Link[T]) Recv() (T, bool) {
	v, ok := l.Peek()
	if !ok {
		return v, false
	}
	l.q.Pop()
	if l.creditPool > 0 {
		if l.e.hooks.transfer == nil || l.traceKeep != nil {
			l.returnCredits(l.e, l.e.now, l.cost(v)) // usable only after this edge
		} else {
			l.stagedRet += l.cost(v)
			l.touch()
		}
	}
	return v, true
}

// Pending returns the items sent and not yet taken (in flight or waiting
// at the receiver). It is for watchdogs and reports, not for Eval.
func (l *Link[T]) Pending() int { return l.q.Len() }

func (l *Link[T]) touch() {
	if !l.dirty {
		l.dirty = true
		l.e.markDirty(l)
	}
}

func (l *Link[T]) elemID() int { return l.id }

func (l *Link[T]) commit(e *Engine) {
	l.dirty = false
	for l.staged.Len() > 0 {
		f := l.staged.Pop()
		l.deliver(e, f.at, f.item, e.now)
	}
	if l.stagedRet > 0 {
		l.returnCredits(e, e.now, l.stagedRet)
		l.stagedRet = 0
	}
}

// format renders an item for a trace.
func (l *Link[T]) format(v T) string {
	if l.Format != nil {
		return l.Format(v)
	}
	return fmt.Sprint(v)
}
