package rtlmodel

// TransferEvent describes one item put on a link, at the commit of the
// edge that sent it.
type TransferEvent struct {
	Link   string // link name
	From   string // sender path
	To     string // receiver path
	Domain string // sender's clock domain
	Cycle  uint64 // sender's cycle
	Time   Time   // sender's edge time
	Arrive Time   // when the receiver sees it

	item   any
	render func(any) string
}

// Value returns the item itself.
func (ev *TransferEvent) Value() any { return ev.item }

// Item renders the item with the link's Format (or fmt.Sprint). Rendering
// happens only when a listener asks, so hooks that need only times and
// names stay cheap.
func (ev *TransferEvent) Item() string { return ev.render(ev.item) }

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
