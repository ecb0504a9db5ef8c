package rtlmodel

import "fmt"

// TransferEvent describes one item put on a link, at the commit of the
// edge that sent it. The engine reuses one event for every transfer: a
// listener keeps what it needs of it, not the event.
type TransferEvent struct {
	Link   string // link name
	From   string // sender path
	To     string // receiver path
	Domain string // sender's clock domain
	Cycle  uint64 // sender's cycle
	Time   Time   // sender's edge time
	Arrive Time   // when the receiver sees it

	// the link whose item it is (its tracing field holds the item while
	// the hooks run), else, for a noted transfer, the item and its
	// renderer
	src    tracedLink
	item   any
	render func(any) string
}

// tracedLink is a link reporting the item it is sending (Link.tracing).
type tracedLink interface {
	tracedValue() any
	renderTraced() string
}

// Value returns the item itself (boxed: TransferValue reads it without
// an allocation).
func (ev *TransferEvent) Value() any {
	if ev.src != nil {
		return ev.src.tracedValue()
	}
	return ev.item
}

// TransferValue returns the event's item when it is a T. Unlike Value it
// boxes nothing, so a listener that looks at every transfer of a large
// model to pick a few allocates nothing for the others.
func TransferValue[T any](ev *TransferEvent) (T, bool) {
	if l, ok := ev.src.(*Link[T]); ok {
		return l.tracing, true
	}
	v, ok := ev.item.(T)
	return v, ok
}

// Item renders the item with the link's Format (or fmt.Sprint). Rendering
// happens only when a listener asks, so hooks that need only times and
// names stay cheap.
func (ev *TransferEvent) Item() string {
	if ev.src != nil {
		return ev.src.renderTraced()
	}
	return ev.render(ev.item)
}

// Hooks is the engine's hook bus. With nothing registered, every hook
// point costs one nil check: items are rendered only when someone listens.
type Hooks struct {
	transfer []func(*TransferEvent)
	edge     []func(d *Domain, cycle uint64, t Time)
}

// OnTransfer calls fn for every item put on any link.
func (h *Hooks) OnTransfer(fn func(*TransferEvent)) { h.transfer = append(h.transfer, fn) }

// OnEdge calls fn after every processed edge of every domain (after commit),
// for samplers such as a VCD probe.
func (h *Hooks) OnEdge(fn func(d *Domain, cycle uint64, t Time)) { h.edge = append(h.edge, fn) }

// Tracing reports whether anything listens for transfers (OnTransfer).
func (e *Engine) Tracing() bool { return e.hooks.transfer != nil }

// NoteTransfer reports to the transfer hooks an item a component hands on
// to itself without a link: from a stage it hosts (named from, in domain
// d, at the stage's edge sent) to itself (named to, at arrive), as the
// link between them would if the stage were a component of its own (see
// Link.TraceDelayAs). sent may precede the engine's time by no more than
// the delay of a link traced as such a stage (TraceComplete). The item
// renders with fmt.Sprint; it is rendered before NoteTransfer returns if
// a listener asks for it.
func (e *Engine) NoteTransfer(link, from, to string, d *Domain, sent, arrive Time, item any) {
	if e.hooks.transfer == nil || !e.keepsNoted(item) {
		return
	}
	ev := &e.traceEv
	*ev = TransferEvent{Link: link, From: from, To: to, Domain: d.name, Cycle: d.CycleAt(sent),
		Time: sent, Arrive: arrive, item: item, render: sprint}
	e.hooks.fireTransfer(ev)
	*ev = TransferEvent{}
}

// TraceComplete returns a time before which every transfer of the run so
// far has reached the transfer hooks, for writing a trace between runs of
// the engine (TraceRecorder.WriteBefore): the engine's time, less the
// longest delay of a link whose receiver hosts the stage the delay stands
// for (Link.TraceDelayAs), since the receiver reports the stage's
// hand-off (NoteTransfer) when it runs it, up to that delay after the
// hand-off's own edge.
func (e *Engine) TraceComplete() Time {
	if e.now < e.traceLag {
		return 0
	}
	return e.now - e.traceLag
}

func (h *Hooks) fireTransfer(ev *TransferEvent) {
	for _, fn := range h.transfer {
		fn(ev)
	}
}

func (h *Hooks) fireEdge(d *Domain, cycle uint64, t Time) {
	for _, fn := range h.edge {
		fn(d, cycle, t)
	}
}

// sprint renders a noted item.
func sprint(v any) string { return fmt.Sprint(v) }
