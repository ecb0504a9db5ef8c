package rtlmodel

import "fmt"

// Couple declares that the components of a and b reach each other other
// than by links (one wakes the other with Handle.WakeAt), so that their
// partitions run no further apart than the lookahead, as linked ones do:
// such a wake, too, must come at least the lookahead after the edge that
// asks for it. Call it before the run; components of one partition need
// no coupling.
func (e *Engine) Couple(a, b *Handle) error { return e.couple(a, b, 0) }

// CoupleWithin is Couple for components whose wakes of each other come
// at least lookahead after the edge that asks for them (a host told of a
// completion when its CQE becomes visible, a PCIe write and a poll after
// the NIC's edge): their partitions run up to that apart instead of the
// engine's lookahead. Coupling a pair twice keeps the shorter lookahead.
// A wake that comes sooner than its partition has run stops the run with
// an error, as for Couple.
func (e *Engine) CoupleWithin(a, b *Handle, lookahead Time) error {
	if lookahead == 0 {
		return fmt.Errorf("couple %s and %s: a lookahead of 0; a wake between partitions comes after the edge that asks for it", a.cs.path, b.cs.path)
	}
	return e.couple(a, b, lookahead)
}

// couple records a coupling of lookahead (0: the engine's).
func (e *Engine) couple(a, b *Handle, lookahead Time) error {
	if e.started {
		return fmt.Errorf("couple %s and %s: after the run began", a.cs.path, b.cs.path)
	}
	pa, pb := a.cs.clk.part, b.cs.clk.part
	if pa == pb {
		return nil
	}
	if pa.index > pb.index {
		pa, pb = pb, pa
	}
	if e.couples == nil {
		e.couples = map[[2]*part]coupling{}
	}
	k := [2]*part{pa, pb}
	c, ok := e.couples[k]
	if !ok {
		c.least = Forever
	}
	if lookahead == 0 {
		c.engine = true
	} else {
		c.least = min(c.least, lookahead)
	}
	e.couples[k] = c
	return nil
}

// coupling is what CoupleWithin declared of a pair of partitions: the
// least lookahead given (Forever: none) and whether one was the engine's.
type coupling struct {
	least  Time
	engine bool
}

// lookahead is the coupling's lookahead, the engine's being window.
func (c coupling) lookahead(window Time) Time {
	if c.engine {
		return min(c.least, window)
	}
	return c.least
}

// coupledWithin is the lookahead of the coupling of a and b, the
// engine's where they are not coupled.
func (e *Engine) coupledWithin(a, b *part) Time {
	if a.index > b.index {
		a, b = b, a
	}
	if c, ok := e.couples[[2]*part{a, b}]; ok {
		return c.lookahead(e.window())
	}
	return e.window()
}
