package rtlmodel

import (
	"fmt"
	"math/bits"
	"slices"
	"sync/atomic"
)

// Options configure an Engine.
type Options struct {
	// Seed derives every component's RNG stream (with the component path).
	Seed uint64
	// AlwaysTick evaluates every component at every edge of its domain,
	// ignoring the Wake it returns. It exists to prove idle skipping exact.
	AlwaysTick bool
	// ShuffleEval evaluates the components due at an edge in a random order
	// (drawn from ShuffleSeed) instead of registration order. A correct
	// model gives the same results either way.
	ShuffleEval bool
	// ShuffleSeed seeds the shuffled order.
	ShuffleSeed uint64
	// OnePartition ignores Partition: every domain is in one partition,
	// run edge by edge. It exists to prove the windowed run of partitions
	// exact.
	OnePartition bool
	// WatchdogCycles stops the run with a *DeadlockError when no link moves
	// anything for this many cycles of the fastest domain, counted to an
	// edge that ran and moved nothing either: a run asleep until a wake
	// that moves something (a workload's next start, however far ahead)
	// has not stalled. 0 turns the timer off; a run that goes quiet with
	// blocked components is reported either way.
	WatchdogCycles uint64
}

// Engine runs components over clock domains in two phases per edge.
// It is single-threaded: one engine is one simulation on one core.
type Engine struct {
	opts    Options
	domains []*Domain
	clocks  []*clock // the domains' edge schedules, one per (period, phase)
	comps   []*compState
	links   []linkInfo
	paths   map[string]bool
	// domainNames and partNames index the domains and partitions by name,
	// so that a fabric of tens of thousands of devices is built without
	// scanning every name made before for each new one
	domainNames map[string]bool
	partNames   map[string]*part
	nextID      int
	started     bool

	parts     []*part // in creation order
	cur       *part   // the partition being run
	building  *part   // the partition new domains join
	lookahead Time    // window length when there are several partitions
	next      []Time  // per partition, the next time it has work (while another runs)
	// per partition, the time before which every edge of it has run, so a
	// wake, item or credit for it must come at or after it (dense, as next:
	// a sweep sets it for every partition)
	doneUntil []Time
	ahead     []int32 // the partitions likely to run in the sweep being run, in order
	// the order a sweep takes the partitions in: creation order unless
	// SetSweepOrder says otherwise
	sweep []int
	// prefetching: the model has partitions enough for the prefetch
	// pipeline (prefetchMinParts); else ahead stays empty
	prefetching bool
	// per partition, the partitions that reach it, with their lookaheads
	neighbours [][]neighbour
	// widest: the longest of those lookaheads, how far past its
	// neighbours a partition may run at most
	widest  Time
	couples map[[2]*part]coupling // CoupleWithin: pairs of partitions, the one made first first
	now     Time                  // the edge being run (or the last one)
	shuffle *RNG
	err     error
	stop    bool
	// interrupt: Interrupt was called, from any goroutine
	interrupt atomic.Bool

	progress     uint64
	progressTime Time
	evals        uint64
	watchdog     Time

	stats *Registry
	hooks Hooks
	// traceEv is the one event the transfer hooks are given, refilled
	// for each transfer
	traceEv TransferEvent
	// noteKeeps: what KeepTransfers keeps of the items NoteTransfer reports
	noteKeeps []func(item any) (ofType, keep bool)
	// traceLag: the longest a receiver may report a hosted stage's
	// hand-off after it was sent (Link.TraceDelayAs, TraceComplete)
	traceLag Time
}

// stateElem is a register, FIFO or link with next state to commit.
type stateElem interface {
	elemID() int
	commit(e *Engine)
}

// NewEngine returns an empty engine.
func NewEngine(opts Options) *Engine {
	e := &Engine{opts: opts, paths: map[string]bool{}, domainNames: map[string]bool{}, stats: NewRegistry()}
	e.cur = newPart("main")
	e.parts, e.building, e.sweep = []*part{e.cur}, e.cur, []int{0}
	e.partNames = map[string]*part{e.cur.name: e.cur}
	e.shuffle = NewRNG(opts.ShuffleSeed, "engine/shuffle")
	return e
}

// Options returns the options the engine was built with.
func (e *Engine) Options() Options { return e.opts }

// Now returns the time of the edge being processed (or the last one).
func (e *Engine) Now() Time { return e.now }

// Stats returns the engine's statistics registry.
func (e *Engine) Stats() *Registry { return e.stats }

// Hooks returns the hook bus.
func (e *Engine) Hooks() *Hooks { return &e.hooks }

// Domains returns the clock domains in registration order.
func (e *Engine) Domains() []*Domain { return e.domains }

// AddDomain registers a clock domain. Its name must be unique and its
// period at least 1 ps.
func (e *Engine) AddDomain(name string, period, phase Time) (*Domain, error) {
	if period == 0 {
		return nil, fmt.Errorf("clock domain %q: period must be at least 1 ps", name)
	}
	if e.domainNames[name] {
		return nil, fmt.Errorf("clock domain %q registered twice", name)
	}
	d := &Domain{name: name, period: period, phase: phase, index: len(e.domains), clk: e.clockFor(period, phase)}
	e.domains = append(e.domains, d)
	e.domainNames[name] = true
	if e.started && e.cur.wakes.grain != 0 && (period%e.cur.wakes.grain != 0 || phase%e.cur.wakes.grain != 0) {
		for _, p := range e.parts {
			p.wakes.setGrain(0) // its edges fall between the wheel's slots
		}
	}
	return d, nil
}

// Add registers a component in a domain under a unique hierarchical path
// (for example "mesh/r3_4"). Every component is evaluated at cycle 0 of its
// domain, then as its Wake asks.
func (e *Engine) Add(d *Domain, path string, c Component) (*Handle, error) {
	if e.started {
		return nil, fmt.Errorf("component %q: added after the run started", path)
	}
	if d == nil || d.index >= len(e.domains) || e.domains[d.index] != d {
		return nil, fmt.Errorf("component %q: domain not registered with this engine", path)
	}
	if e.paths[path] {
		return nil, fmt.Errorf("component %q registered twice", path)
	}
	e.paths[path] = true
	clk := d.clk
	cs := &compState{comp: c, path: path, dom: d, clk: clk, part: clk.part, clkIndex: int32(clk.index),
		pos: len(clk.comps), order: len(e.comps), timer: -1}
	cs.handle = &Handle{e: e, cs: cs}
	e.comps = append(e.comps, cs)
	d.comps = append(d.comps, cs)
	clk.comps = append(clk.comps, cs)
	if len(clk.comps) > 64*len(clk.due) {
		if len(clk.due) < len(clk.dueInline) {
			clk.due = clk.dueInline[:len(clk.due)+1]
		} else {
			clk.due = append(clk.due, 0) // moves to the heap past the inline words
		}
	}
	return cs.handle, nil
}

// newElemID numbers state elements; commits run in this order.
func (e *Engine) newElemID() int { e.nextID++; return e.nextID }

// markDirty queues a state element for commit at the end of this edge.
func (e *Engine) markDirty(s stateElem) { e.cur.dirty = append(e.cur.dirty, s) }

// wakeFor asks for cs to be evaluated at time t (an edge of its domain),
// unless it is already due then from its clock's active list. Asked during
// the evaluations of an edge (a link delivering at Send), the wake waits
// in a list until they end: a receiver evaluated later in the edge may
// still ask for the next edge itself, and then needs no wake entry.
func (e *Engine) wakeFor(cs *compState, t Time) {
	if p := cs.part; p != e.cur {
		e.wakeOther(p, cs, t)
		return
	}
	if cs.activeAt == t || cs.wokenAt == t {
		return
	}
	// t is later than now, so an entry for it cannot have been taken yet:
	// a second link delivering at t needs no second entry.
	cs.wokenAt = t
	if e.cur.evaluating {
		e.cur.pending = append(e.cur.pending, pendingWake{cs: cs, t: t})
		return
	}
	e.cur.wakes.push(newWake(t, int(cs.clkIndex), cs.order, cs))
}

// wakeOther is wakeFor for a component of another partition, which has
// run up to e.doneUntil[p.index] at most; the link asking has checked t against it.
func (e *Engine) wakeOther(p *part, cs *compState, t Time) {
	if cs.activeAt == t || cs.wokenAt == t {
		return
	}
	cs.wokenAt = t
	p.wakes.push(newWake(t, int(cs.clkIndex), cs.order, cs))
	if e.next != nil { // else the first window reads it from p.wakes
		e.next[p.index] = min(e.next[p.index], t)
	}
}

// pendingWake is a wake asked for during the evaluations of an edge.
type pendingWake struct {
	cs *compState
	t  Time
}

// flushWakes queues the wakes asked for during the evaluations just done,
// but those of components already due then from their active list.
func (e *Engine) flushWakes() {
	for i, p := range e.cur.pending {
		if p.cs.activeAt != p.t {
			e.cur.wakes.push(newWake(p.t, int(p.cs.clkIndex), p.cs.order, p.cs))
		}
		e.cur.pending[i].cs = nil
	}
	e.cur.pending = e.cur.pending[:0]
}

// fail records the first internal error; the run stops after this edge.
func (e *Engine) fail(err error) {
	if e.err == nil {
		e.err = err
	}
}

// noteProgress records that something moved (watchdog).
func (e *Engine) noteProgress(n uint64) {
	e.progress += n
	e.progressTime = e.now
}

// Stop ends the run after the current edge.
func (e *Engine) Stop() { e.stop = true }

// Evals returns the number of Eval calls so far (the work the engine did;
// with idle skipping it is far below components × cycles).
func (e *Engine) Evals() uint64 { return e.evals }

// Progress returns the number of link transfers and credit returns so far.
func (e *Engine) Progress() uint64 { return e.progress }

func (e *Engine) start() {
	e.started = true
	if e.opts.WatchdogCycles > 0 && len(e.domains) > 0 {
		fastest := e.domains[0].period
		for _, d := range e.domains {
			fastest = min(fastest, d.period)
		}
		e.watchdog = Time(e.opts.WatchdogCycles) * fastest
	}
	if !e.opts.AlwaysTick && len(e.parts) == 1 {
		// a partition of one device has few wakes at a time: its heap
		// beats a wheel of thousands of slots per partition
		g := edgeGrain(e.domains)
		for _, p := range e.parts {
			p.wakes.setGrain(g)
		}
	}
	for _, c := range e.clocks {
		for _, cs := range c.comps {
			c.part.wakes.push(newWake(c.phase, c.index, cs.order, cs))
			if pf, ok := cs.comp.(Prefetcher); ok && c.part.nPrefetchers < maxPrefetchers {
				c.part.prefetchers[c.part.nPrefetchers] = pf
				c.part.nPrefetchers++
			}
		}
	}
}

// edgeGrain returns the largest time of which every edge of every domain is
// a multiple (the greatest common divisor of periods and phases).
func edgeGrain(domains []*Domain) Time {
	var g Time
	for _, d := range domains {
		g = gcd(g, d.period)
		g = gcd(g, d.phase)
	}
	return g
}

func gcd(a, b Time) Time {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// nextTime returns the next edge time at which some component is due.
func (e *Engine) nextTime() Time {
	t := Forever
	if e.cur.wakes.len() > 0 {
		t = e.cur.wakes.top().t
	}
	if e.cur.timers.len() > 0 {
		t = min(t, e.cur.timers.top().t)
	}
	busy := t != Forever
	for _, c := range e.cur.activeClocks {
		busy = true
		t = min(t, c.lastEdge+c.period)
	}
	if !busy || !e.opts.AlwaysTick {
		return t
	}
	for _, c := range e.cur.clocks {
		if len(c.comps) == 0 {
			continue
		}
		next := c.phase
		if c.ticked {
			next = c.lastEdge + c.period
		}
		t = min(t, next)
	}
	return t
}

// Run simulates until the time until (inclusive), until nothing is left to
// do, or until a component calls Stop; Interrupt ends it sooner, at a
// clean point. It returns a *DeadlockError when
// the run goes quiet with blocked components or the watchdog fires, and the
// first internal error a state element reported.
func (e *Engine) Run(until Time) error {
	if !e.started {
		e.start()
	}
	e.stop = false
	if len(e.parts) > 1 {
		return e.runWindows(until)
	}
	for !e.stop {
		t := e.nextTime()
		if t == Forever {
			return e.quiet()
		}
		if t > until {
			e.now, e.cur.now = until, until
			return nil
		}
		e.now, e.cur.now = t, t
		if err := e.runDue(t); err != nil {
			return err
		}
		if e.stalled(t) {
			return e.stall()
		}
	}
	return nil
}

// runDue runs, in clock order, the edges at t of the clocks with work:
// those whose active list is due and those with wakes or plans at t (with
// AlwaysTick, every clock with components and an edge at t). It takes all
// the wakes and plans of t at once, marking their components due in their
// clock, and looks at those clocks only, not at every clock of the engine.
func (e *Engine) runDue(t Time) error {
	due := e.cur.dueScratch[:0]
	mark := func(c *clock) {
		if !c.marked {
			c.marked = true
			due = append(due, c)
		}
	}
	for _, c := range e.cur.activeClocks {
		if c.lastEdge+c.period == t {
			mark(c)
		}
	}
	for e.cur.wakes.len() > 0 && e.cur.wakes.top().t == t {
		cs := e.cur.wakes.pop().cs
		cs.clk.markDue(cs)
		mark(cs.clk)
	}
	for e.cur.timers.len() > 0 && e.cur.timers.top().t == t {
		cs := e.cur.timers.pop().cs
		cs.clk.markDue(cs)
		mark(cs.clk)
	}
	if e.opts.AlwaysTick {
		for _, c := range e.cur.clocks {
			if len(c.comps) > 0 && c.onEdge(t) {
				mark(c)
			}
		}
	}
	if len(due) > 1 {
		slices.SortFunc(due, func(a, b *clock) int { return a.index - b.index })
	}
	e.cur.dueScratch = due
	for _, c := range due {
		c.marked = false
	}
	for _, c := range due {
		e.runEdge(c, t)
		if e.err != nil {
			return e.err
		}
	}
	return nil
}

// runEdge evaluates then commits everything due on clock c at time t.
func (e *Engine) runEdge(c *clock, t Time) {
	list := e.collect(c, t)
	if e.opts.ShuffleEval {
		e.shuffle.Shuffle(len(list), func(i, j int) { list[i], list[j] = list[j], list[i] })
	}
	cycle := c.lastCycle + 1
	if !c.ticked || c.lastEdge+c.period != t {
		cycle = c.cycleAt(t)
	}
	c.nextActive = c.nextActive[:0]
	e.cur.evaluating = true
	for _, cs := range list {
		e.evalComp(c, cs, t, cycle)
	}
	e.cur.evaluating = false
	e.flushWakes()
	e.commitAll()
	if e.opts.ShuffleEval {
		slices.SortFunc(c.nextActive, func(a, b *compState) int { return a.order - b.order })
	}
	if len(c.nextActive) > 0 || len(c.active) > 0 {
		c.active, c.nextActive = c.nextActive, c.active
	}
	e.noteActive(c)
	c.lastEdge, c.lastCycle, c.ticked = t, cycle, true
	if e.hooks.edge != nil {
		slices.SortFunc(e.cur.edgeDoms, func(a, b *Domain) int { return a.index - b.index })
		for _, d := range e.cur.edgeDoms {
			e.hooks.fireEdge(d, cycle, t)
		}
		e.cur.edgeDoms = e.cur.edgeDoms[:0]
	}
}

// evalComp evaluates cs, due on c at t (cycle), in the edge being run:
// it counts the edge in cs's domain, calls Eval with the cycles slept,
// rearms cs's watches and keeps the plan Eval returned (c's next active
// list, a timer, or none).
func (e *Engine) evalComp(c *clock, cs *compState, t Time, cycle uint64) {
	if d := cs.dom; d.lastEdge != t || !d.ticked {
		d.lastEdge, d.lastCycle, d.ticked = t, cycle, true
		d.edgeCount++
		if e.hooks.edge != nil {
			e.cur.edgeDoms = append(e.cur.edgeDoms, d)
		}
	}
	slept := cycle
	if cs.evaluated {
		slept = cycle - cs.lastCycle - 1
	}
	w := cs.comp.Eval(Edge{Cycle: cycle, Time: t, Slept: slept})
	for _, wt := range cs.watches {
		wt.rearm(t)
	}
	e.evals++
	cs.evaluated, cs.lastCycle, cs.lastTime = true, cycle, t
	switch {
	case uint64(w) <= cycle+1:
		c.nextActive = append(c.nextActive, cs)
		cs.activeAt = t + c.period
		if cs.timer >= 0 {
			e.cur.timers.remove(cs)
		}
	case w == Never:
		if cs.timer >= 0 {
			e.cur.timers.remove(cs)
		}
	default:
		e.cur.timers.set(newWake(c.edgeTime(uint64(w)), c.index, cs.order, cs))
	}
}

// noteActive keeps activeClocks, the clocks with a non-empty active list,
// up to date after an edge of c.
func (e *Engine) noteActive(c *clock) {
	switch {
	case len(c.active) > 0 && c.activeSlot < 0:
		c.activeSlot = len(e.cur.activeClocks)
		e.cur.activeClocks = append(e.cur.activeClocks, c)
	case len(c.active) == 0 && c.activeSlot >= 0:
		last := e.cur.activeClocks[len(e.cur.activeClocks)-1]
		e.cur.activeClocks[c.activeSlot] = last
		last.activeSlot = c.activeSlot
		e.cur.activeClocks = e.cur.activeClocks[:len(e.cur.activeClocks)-1]
		c.activeSlot = -1
	}
}

// collect returns the components due on c at t in registration order:
// those its wakes and plans marked and its active list.
func (e *Engine) collect(c *clock, t Time) []*compState {
	if len(c.active) > 0 && c.lastEdge+c.period == t {
		for _, cs := range c.active {
			c.markDue(cs)
		}
	}
	list := e.cur.scratch[:0]
	if e.opts.AlwaysTick {
		list = append(list, c.comps...)
		clear(c.due)
	}
	for w, word := range c.due {
		if word == 0 {
			continue
		}
		c.due[w] = 0
		for word != 0 {
			b := bits.TrailingZeros64(word)
			word &^= 1 << uint(b)
			list = append(list, c.comps[w<<6|b])
		}
	}
	e.cur.scratch = list
	return list
}

// commitAll commits the state written in this edge. Commits are
// independent of each other, so their order shows only in what hooks see:
// when someone listens, they run in element order, which no Eval order can
// change.
func (e *Engine) commitAll() {
	if len(e.cur.dirty) == 0 {
		return
	}
	if e.hooks.transfer != nil && !slices.IsSortedFunc(e.cur.dirty, cmpElem) {
		slices.SortFunc(e.cur.dirty, cmpElem)
	}
	for i, s := range e.cur.dirty {
		s.commit(e)
		e.cur.dirty[i] = nil
	}
	e.cur.dirty = e.cur.dirty[:0]
}

func cmpElem(a, b stateElem) int { return a.elemID() - b.elemID() }

// quiet ends a run in which nothing is due any more.
func (e *Engine) quiet() error {
	if e.blockedCount() > 0 {
		return e.deadlock("nothing left to do but components are blocked")
	}
	return nil
}

// Finish brings every Finisher's counters up to the last processed edge
// time. Call it once after the last Run.
func (e *Engine) Finish() {
	for _, cs := range e.comps {
		f, ok := cs.comp.(Finisher)
		if !ok {
			continue
		}
		d := cs.dom
		if e.now < d.phase {
			continue
		}
		last := d.CycleAt(d.FirstEdgeAfter(e.now) - d.period) // last edge at or before now
		slept := last + 1
		if cs.evaluated {
			slept = last - cs.lastCycle
		}
		f.Finish(Edge{Cycle: last, Time: d.EdgeTime(last), Slept: slept})
	}
}
