package rtlmodel

// Handle is a registered component's view of the engine: its path, domain,
// RNG stream and the current edge.
type Handle struct {
	e  *Engine
	cs *compState
}

// Path returns the component's hierarchical path.
func (h *Handle) Path() string { return h.cs.path }

// Domain returns the component's clock domain.
func (h *Handle) Domain() *Domain { return h.cs.dom }

// Engine returns the engine the component is registered with.
func (h *Handle) Engine() *Engine { return h.e }

// Now returns the current edge time.
func (h *Handle) Now() Time { return h.e.now }

// RNG returns the component's own random stream, derived from the engine
// seed and the component path, so that adding a component elsewhere in the
// model does not change this one's draws.
func (h *Handle) RNG() *RNG {
	if h.cs.rng == nil {
		h.cs.rng = NewRNG(h.e.opts.Seed, h.cs.path)
	}
	return h.cs.rng
}

// Progress tells the watchdog that the component moved something that no
// link transfer shows (for example, internal work with no output yet).
func (h *Handle) Progress() { h.e.noteProgress(1) }

// Fail reports a modelling error the component found (a state its model
// cannot represent): the run stops after this edge with the first such
// error, as it does when a link is misused.
func (h *Handle) Fail(err error) { h.e.fail(err) }

// WakeAt asks for an Eval at the first edge of the component's domain at or
// after t (t later than now). Links call it on delivery.
func (h *Handle) WakeAt(t Time) { h.e.wakeAt(h.cs, t) }

func (e *Engine) wakeAt(cs *compState, t Time) {
	t = cs.dom.FirstEdgeAtOrAfter(t)
	p := cs.part
	if p != e.cur {
		e.crossing(cs, t, "a wake", "")
		p.wakes.push(newWake(t, int(cs.clkIndex), cs.order, cs))
		if e.next != nil {
			e.next[p.index] = min(e.next[p.index], t)
		}
		return
	}
	if t <= e.now {
		t = cs.dom.FirstEdgeAfter(e.now)
	}
	p.wakes.push(newWake(t, int(cs.clkIndex), cs.order, cs))
}
