package rtlmodel

import "math"

// Component is a hardware block evaluated at the edges of its clock domain.
//
// Eval must read only committed state and write only next state (see the
// package doc). It returns the cycle of its domain at which it next has
// work: edge.Next() to be evaluated at the following edge, a later cycle to
// sleep until then, or Never to sleep until a link delivers to it. A
// component that is evaluated at an edge where it has nothing to do must
// change nothing and return the same Wake as before (keep the plan in
// state, not in the cycle arithmetic of the call): that is what makes idle
// skipping equal to always-tick.
type Component interface {
	Eval(edge Edge) Wake
}

// Wake is the domain cycle at which a component asks to be evaluated next.
type Wake uint64

// Never means: evaluate me again only when a link delivers to me.
const Never Wake = math.MaxUint64

// Edge tells a component where it is evaluated.
type Edge struct {
	// Cycle is the cycle number of the component's domain.
	Cycle uint64
	// Time is the edge time in ps.
	Time Time
	// Slept is the number of cycles of this domain since the component's
	// previous Eval (or since cycle 0) in which it was not evaluated. It is
	// always 0 in AlwaysTick mode.
	Slept uint64
}

// Next asks for evaluation at the following edge.
func (e Edge) Next() Wake { return Wake(e.Cycle + 1) }

// After asks for evaluation n cycles from now (n >= 1).
func (e Edge) After(n uint64) Wake {
	if n == 0 {
		n = 1
	}
	return Wake(e.Cycle + n)
}

// Blocker is implemented by components that can say what they wait on. The
// watchdog calls it when nothing moves; it returns "" when the component is
// not blocked, else what it waits for (e.g. "credits on link x", "FIFO y
// full", "input z empty").
type Blocker interface {
	BlockedOn() string
}

// compState is the engine's record of a registered component.
type compState struct {
	// What a wake reads comes first, in one cache line: a link or a
	// watch in another partition wakes the component long after its
	// partition last ran, and each line (or object, such as its clock)
	// the wake must read first is one more miss.
	part     *part  // clk.part
	clkIndex int32  // clk.index
	timer    int32  // index of its plan in the engine's timer heap, -1 for none
	order    int    // registration order across the engine
	activeAt Time   // the edge for which it is in its domain's active list
	wokenAt  Time   // the time of its latest wake entry from a link
	lastTime Time   // time of the last Eval (to drop duplicate wakes)
	clk      *clock // dom.clk
	dom      *Domain

	comp      Component
	path      string
	pos       int // index in clk.comps
	handle    *Handle
	evaluated bool
	lastCycle uint64 // cycle of the last Eval
	rng       *RNG
	watches   []*Watch // that wake it for their events (Watch)
}

// Finisher is implemented by components whose counters must be brought up
// to the end of the run: Engine.Finish calls Finish with the cycles slept
// since the last Eval, so both idle skipping and always-tick end with the
// same counts.
type Finisher interface {
	Finish(edge Edge)
}
