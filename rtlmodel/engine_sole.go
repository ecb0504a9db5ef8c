package rtlmodel

// A partition of a model of many devices is mostly one component due at a
// time: a traffic manager woken for an arrival, a NIC for its pacing
// timer. For such an edge step runs the component at once (runOne), as
// runDue would after marking it due in its clock's bitmap, sorting the
// one clock and collecting the one component from the bitmap.

// step runs the edges at t of the partition being run: runDue, or runOne
// when a single component is due.
func (e *Engine) step(t Time) error {
	if cs := e.soleDue(t); cs != nil {
		e.runOne(cs, t)
		return e.err
	}
	return e.runDue(t)
}

// soleDue returns the component due at t when it is the only one: no
// active list is due then, and the wakes and plans at t are at most one
// wake and one plan, both for it. It takes them; otherwise it takes
// nothing and returns nil, and runDue takes them all. With AlwaysTick,
// ShuffleEval or edge hooks, or the wake wheel in use, it leaves every
// edge to runDue.
func (e *Engine) soleDue(t Time) *compState {
	p := e.cur
	if e.opts.AlwaysTick || e.opts.ShuffleEval || e.hooks.edge != nil || p.wakes.count > 0 {
		return nil
	}
	for _, c := range p.activeClocks {
		if c.lastEdge+c.period == t {
			return nil
		}
	}
	wakes, timers := &p.wakes.far, &p.timers
	var cs *compState
	woken := wakes.len() > 0 && wakes.s[0].t == t
	if woken {
		if wakes.secondAt(t) {
			return nil
		}
		cs = wakes.s[0].cs
	}
	planned := timers.len() > 0 && timers.s[0].t == t
	if planned {
		// a component has one plan at most: a second plan at t is
		// another component's
		if cs != nil && timers.s[0].cs != cs || timers.secondAt(t) {
			return nil
		}
		cs = timers.s[0].cs
	}
	if woken {
		wakes.pop()
	}
	if planned {
		timers.pop()
	}
	return cs
}

// secondAt reports whether the heap holds an entry at t besides its top
// (one at t, the least time): it would be one of the top's children.
func (h *wakeHeap) secondAt(t Time) bool { return secondAt(h.s, t) }

// secondAt is wakeHeap.secondAt for the plans.
func (h *timerHeap) secondAt(t Time) bool { return secondAt(h.s, t) }

// secondAt reports whether a 4-ary heap s, whose top is at t, holds
// another entry at t among the top's children.
func secondAt(s []wakeEntry, t Time) bool {
	for i := 1; i < min(5, len(s)); i++ {
		if s[i].t == t {
			return true
		}
	}
	return false
}

// runOne is runEdge for the only component due at t, cs: it evaluates
// then commits it, and keeps its clock, domain and plans as runEdge does.
func (e *Engine) runOne(cs *compState, t Time) {
	c := cs.clk
	cycle := c.lastCycle + 1
	if !c.ticked || c.lastEdge+c.period != t {
		cycle = c.cycleAt(t)
	}
	c.nextActive = c.nextActive[:0]
	e.cur.evaluating = true
	e.evalComp(c, cs, t, cycle)
	e.cur.evaluating = false
	e.flushWakes()
	e.commitAll()
	if len(c.nextActive) > 0 || len(c.active) > 0 {
		c.active, c.nextActive = c.nextActive, c.active
	}
	e.noteActive(c)
	c.lastEdge, c.lastCycle, c.ticked = t, cycle, true
}
