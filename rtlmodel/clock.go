package rtlmodel

// clock is the edge schedule of the domains that share a period and a
// phase. Their edges coincide, so the engine evaluates the due components
// of all of them together and commits once per edge: a fabric of a
// thousand NICs clocked alike costs one edge where it would otherwise cost
// a thousand. Each Domain keeps its own name and statistics.
type clock struct {
	// What an edge reads comes first, in one cache line with the due
	// bitmap of its first 128 components: a partition's clocks are out of
	// the caches each time its window begins.
	period     Time
	phase      Time
	lastEdge   Time   // time of the last processed edge
	lastCycle  uint64 // its cycle number
	ticked     bool   // whether any edge was processed
	marked     bool   // in the engine's list of clocks due at this edge
	activeSlot int    // index in the engine's activeClocks, -1 when not there
	index      int    // creation order: clocks at equal times run in this order
	// dueInline holds the due bitmap while it fits (due is a view of it)
	dueInline [2]uint64
	due       []uint64 // bit i: comps[i] is due at the edge being gathered

	part       *part        // the partition of its domains
	comps      []*compState // of all its domains, in registration order
	active     []*compState // due at the edge after lastEdge, sorted by order
	nextActive []*compState // scratch: built during an edge
	_          [16]byte     // to 192 bytes, a size class of whole lines
}

// markDue notes that cs, a component of c, is due at the edge being
// gathered.
func (c *clock) markDue(cs *compState) { c.due[cs.pos>>6] |= 1 << uint(cs.pos&63) }

// onEdge reports whether t is an edge of c.
func (c *clock) onEdge(t Time) bool { return t >= c.phase && (t-c.phase)%c.period == 0 }

// cycleAt returns the cycle whose edge is at t; t must be an edge time.
func (c *clock) cycleAt(t Time) uint64 { return uint64((t - c.phase) / c.period) }

// edgeTime returns the time of cycle n.
func (c *clock) edgeTime(n uint64) Time { return c.phase + Time(n)*c.period }

// clockFor returns the clock of period and phase in the partition being
// built, creating it if needed.
func (e *Engine) clockFor(period, phase Time) *clock {
	p := e.building
	for _, c := range p.clocks {
		if c.period == period && c.phase == phase {
			return c
		}
	}
	c := &clock{period: period, phase: phase, index: len(e.clocks), part: p, activeSlot: -1}
	e.clocks = append(e.clocks, c)
	p.clocks = append(p.clocks, c)
	return c
}
