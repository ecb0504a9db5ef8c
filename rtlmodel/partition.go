package rtlmodel

import "fmt"

// part is a partition: a group of clock domains with its own schedule
// (wakes, plans, active lists, commits). A model made of devices that talk
// only over links slower than a lookahead (switches and NICs joined by
// wires of at least a few tens of nanoseconds) can run each device alone
// for a window of that length, one after the other, instead of all of them
// edge by edge: nothing one device sends in a window can reach another
// before the window ends, so the results are those of the lockstep run,
// while a device's state stays in the caches for a whole window.
type part struct {
	name   string
	index  int      // creation order: the order partitions run in a window
	clocks []*clock // of its domains, in creation order

	activeClocks []*clock // clocks with a non-empty active list, any order
	dueScratch   []*clock
	edgeDoms     []*Domain // domains evaluated at this edge, for edge hooks
	wakes        wakeWheel // wakes asked for by links and handles
	timers       timerHeap // each component's own plan (the Wake its Eval returned)
	dirty        []stateElem
	evaluating   bool          // in the evaluations of an edge (wakes wait in pending)
	pending      []pendingWake // wakes asked for by them
	scratch      []*compState

	// now is the partition's time: the edge being run while it runs, else
	// a time no later than anything queued for it (the wake wheel's base).
	now Time
	// arriving: the links from other partitions into this one, and those
	// within it asked to (Link.ReadAheadInWindows), that have had items
	// delivered since a window last found them empty; their queues are
	// read ahead when a window begins (warm). A switch has 64 links in,
	// most of them empty at any time: looking only at those delivered to
	// spares a miss on each of the others every window.
	arriving []readerAhead
	// prefetchers: its first components that name the lines they read
	// next (Prefetcher), in the order of their clocks and registration
	prefetchers  [maxPrefetchers]Prefetcher
	nPrefetchers int
	// sink keeps the reads ahead from being optimised away; it is the
	// partition's own, so engines in concurrent goroutines share nothing
	sink uint64
}

// readerAhead is a link whose first queued items can be read ahead (and
// their arrivals told, Link.readAhead).
type readerAhead interface {
	readAhead(e *Engine, end Time) (sum uint64, queued bool, untold Time)
	// untold reports whether the link holds an item whose arrival its
	// receiver has not been told of
	untold() bool
	// the prefetch pipeline's levels (partition_prefetch.go)
	prefetchLink()
	prefetchQueued()
	prefetchItems(end Time)
}

// warm reads, before the partition runs a window ending at end, the items
// arriving in it on every link into it from another partition, and tells
// their receivers of them (wakes them or tells their watches): a sender
// in another partition only lowers the partition's next time to the
// arrival (Link.deliver). The items were written while the rest of the
// model ran and are out of the caches; read one after the other with
// nothing depending on them, their misses overlap, where the evaluations
// would meet them one at a time; and the receivers' watches and wake
// queues are this partition's, which the window is about to use, not
// lines a sender far away must fetch. It returns the earliest arrival at
// or after end not told of yet.
func (p *part) warm(e *Engine, end Time) Time {
	var s uint64
	untold := Forever
	keep := p.arriving[:0]
	for _, l := range p.arriving {
		v, queued, next := l.readAhead(e, end)
		s += v
		untold = min(untold, next)
		if queued {
			keep = append(keep, l)
		}
	}
	clear(p.arriving[len(keep):])
	p.arriving = keep
	p.sink += s
	return untold
}

// untold reports whether a link into the partition holds an item whose
// arrival its receiver has not been told of.
func (p *part) untold() bool {
	for _, l := range p.arriving {
		if l.untold() {
			return true
		}
	}
	return false
}

func newPart(name string) *part {
	p := &part{name: name}
	p.wakes.now, p.wakes.head = &p.now, -1
	return p
}

// Partition makes the partition named name the one the domains added from
// now on belong to, until the next call, creating it (after the others)
// unless it exists. Every engine begins with one partition, which the
// first call renames if it has no domain yet. Links between partitions
// must be slower than the lookahead (SetLookahead); a link that delivers
// or returns credits sooner stops the run with an error naming it.
func (e *Engine) Partition(name string) error {
	if e.started {
		return fmt.Errorf("partition %q: started after the run began", name)
	}
	if e.opts.OnePartition {
		return nil
	}
	for _, p := range e.parts {
		if p.name == name {
			e.building = p
			return nil
		}
	}
	if len(e.building.clocks) == 0 && e.building == e.parts[len(e.parts)-1] {
		e.building.name = name
		return nil
	}
	p := newPart(name)
	p.index = len(e.parts)
	e.parts = append(e.parts, p)
	e.building = p
	return nil
}

// Partitions returns the number of partitions.
func (e *Engine) Partitions() int { return len(e.parts) }

// SetLookahead sets the length of the windows in which each partition runs
// alone: the least time any link between partitions takes to deliver an
// item or return a credit, counted from the edge that sends it. 0 runs the
// partitions edge by edge (a window per edge time).
func (e *Engine) SetLookahead(t Time) error {
	if e.started {
		return fmt.Errorf("lookahead set after the run began")
	}
	e.lookahead = t
	return nil
}

// Lookahead returns the window length set by SetLookahead.
func (e *Engine) Lookahead() Time { return e.lookahead }

// crossing checks that an event for cs at t, asked for by the partition
// running now, comes no earlier than cs's partition has run; what and name
// (joined) name the channel for the error.
func (e *Engine) crossing(cs *compState, t Time, what, name string) {
	if p := cs.part; p != e.cur && e.doneUntil != nil && t < e.doneUntil[p.index] {
		e.tooSoon(cs, t, what, name)
	}
}

// backward reports whether an event from partition from to partition to
// may find to already past it in the window: to runs first (a link from a
// NIC back to a switch made before it), so the event must come a whole
// window after the edge that sends it. An event for a partition that runs
// later in the window needs only come after the edge, as every event does.
func backward(from, to *part) bool { return from != to && to.index < from.index }

// tooSoon stops the run: an event reaches cs at t, before the end of a
// window its partition may have run.
func (e *Engine) tooSoon(cs *compState, t Time, what, name string) {
	p := cs.part
	e.fail(fmt.Errorf("%s%s: reaches %s at %v, %v after the edge at %v, within the lookahead of %v "+
		"(partition %s runs before %s in a window)",
		what, name, cs.path, t, t-e.now, e.now, e.lookahead, p.name, e.cur.name))
}

// runWindows runs the partitions window by window up to until: each window
// starts at the earliest time any partition has work and lasts the
// lookahead (at least one edge time), and every partition runs its edges
// of the window in turn, in the order the partitions were made.
func (e *Engine) runWindows(until Time) error {
	defer e.select0()
	if e.next == nil {
		e.next = make([]Time, len(e.parts))
		e.doneUntil = make([]Time, len(e.parts))
		for i, p := range e.parts {
			e.cur = p
			e.next[i] = e.nextTime()
		}
	}
	for !e.stop {
		t0 := Forever
		for _, t := range e.next {
			t0 = min(t0, t)
		}
		if t0 == Forever {
			e.alignNow(e.latest())
			return e.quiet()
		}
		if t0 > until {
			e.alignNow(until)
			return nil
		}
		if e.watchdog > 0 && t0 > e.progressTime && t0-e.progressTime > e.watchdog {
			e.alignNow(t0)
			return e.deadlock(fmt.Sprintf("no progress for %d cycles", e.opts.WatchdogCycles))
		}
		end := t0 + e.window()
		if until < end-1 {
			end = until + 1
		}
		ahead := e.ahead[:0]
		for i, t := range e.next {
			if t < end {
				ahead = append(ahead, int32(i))
			}
		}
		e.ahead = ahead
		k := 0 // ahead[k] is the next partition with work to run
		for i, p := range e.parts {
			if e.next[i] >= end {
				// nothing to do in this window, counting what the
				// partitions before it sent it; those after it can
				// only send it something for end or later
				e.doneUntil[i] = end
				continue
			}
			e.prefetchAhead(ahead, k, end)
			k++
			e.cur = p
			untold := p.warm(e, end)
			t := e.nextTime()
			for t < end {
				e.now, p.now = t, t
				if err := e.runDue(t); err != nil {
					return err
				}
				t = e.nextTime()
			}
			e.next[i] = min(t, untold)
			e.doneUntil[i] = end
		}
	}
	return nil
}

// window is the length of a window: the lookahead, at least one ps (a
// window per edge time).
func (e *Engine) window() Time { return max(e.lookahead, 1) }

// Idle reports whether nothing is due any more in any partition: no wake,
// no plan and no component asking for its next edge. A run that stops
// with work undone while the engine is idle can never go on.
func (e *Engine) Idle() bool {
	if !e.started {
		return false
	}
	cur := e.cur
	defer func() { e.cur = cur }()
	for _, p := range e.parts {
		e.cur = p
		if e.nextTime() != Forever || p.untold() {
			return false
		}
	}
	return true
}

// latest returns the time of the last edge any partition ran.
func (e *Engine) latest() Time {
	t := e.now
	for _, p := range e.parts {
		t = max(t, p.now)
	}
	return t
}

// alignNow sets the time of the engine and of every partition to t (no
// partition has anything queued before it).
func (e *Engine) alignNow(t Time) {
	e.now = t
	for _, p := range e.parts {
		p.now = max(p.now, t)
	}
}

// select0 makes the first partition the current one again.
func (e *Engine) select0() { e.cur = e.parts[0] }
