package rtlmodel

import (
	"fmt"
	"slices"
)

// part is a partition: a group of clock domains with its own schedule
// (wakes, plans, active lists, commits). A model made of devices that talk
// only over links slower than a lookahead (switches and NICs joined by
// wires of at least a few tens of nanoseconds) can run each device alone
// for a window of up to that length past its neighbours, one after the
// other, instead of all of them edge by edge: nothing one device sends can
// reach another sooner than the lookahead, so the results are those of
// the lockstep run, while a device's state stays in the caches for a
// whole window (runWindows).
type part struct {
	name   string
	index  int      // creation order: the sweep's unless SetSweepOrder says otherwise
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
	// batched: the watches told of arrivals in the read-ahead being done
	// (Watch.addAhead)
	batched []*Watch
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
	p.endBatches()
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
	if p, ok := e.partNames[name]; ok {
		e.building = p
		return nil
	}
	if len(e.building.clocks) == 0 && e.building == e.parts[len(e.parts)-1] {
		delete(e.partNames, e.building.name)
		e.building.name = name
		e.partNames[name] = e.building
		return nil
	}
	p := newPart(name)
	p.index = len(e.parts)
	e.parts = append(e.parts, p)
	e.sweep = append(e.sweep, p.index)
	e.partNames[name] = p
	e.building = p
	return nil
}

// Partitions returns the number of partitions.
func (e *Engine) Partitions() int { return len(e.parts) }

// SetSweepOrder sets the order in which a sweep runs the partitions, by
// name; by default a sweep takes them in creation order. The order
// changes no result, only which state is still in the caches when a
// partition runs: one run right after a neighbour reads what that
// neighbour has just sent it. Each partition must be named once. With
// Options.OnePartition there is one partition and nothing to order.
func (e *Engine) SetSweepOrder(names []string) error {
	if e.started {
		return fmt.Errorf("sweep order set after the run began")
	}
	if e.opts.OnePartition {
		return nil
	}
	index := make(map[string]int, len(e.parts))
	for i, p := range e.parts {
		index[p.name] = i
	}
	if len(names) != len(e.parts) {
		return fmt.Errorf("sweep order of %d partitions, for %d", len(names), len(e.parts))
	}
	seen := make([]bool, len(e.parts))
	sweep := make([]int, len(names))
	for k, name := range names {
		i, ok := index[name]
		if !ok {
			return fmt.Errorf("sweep order: no partition %q", name)
		}
		if seen[i] {
			return fmt.Errorf("sweep order: partition %q named twice", name)
		}
		seen[i] = true
		sweep[k] = i
	}
	e.sweep = sweep
	return nil
}

// SetLookahead sets how far past its neighbours a partition may run alone:
// the least time any link between partitions takes to deliver an item or
// return a credit (or a coupled wake, Couple, to come), counted from the
// edge that sends it. 0 runs the partitions edge by edge (a window per
// edge time).
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
		e.tooSoon(cs, t, what, name, e.coupledWithin(p, e.cur))
	}
}

// tooSoon stops the run: an event reaches cs at t, before the end of a
// window its partition may have run, the channel's lookahead being
// lookahead.
func (e *Engine) tooSoon(cs *compState, t Time, what, name string, lookahead Time) {
	p := cs.part
	e.fail(fmt.Errorf("%s%s: reaches %s at %v, %v after the edge at %v, within the lookahead of %v "+
		"(partition %s may have run ahead of %s by up to the lookahead)",
		what, name, cs.path, t, t-e.now, e.now, lookahead, p.name, e.cur.name))
}

// runWindows runs the partitions up to until, each as far as its neighbours
// allow: a partition may run up to the least, over the partitions linked to
// it (either way), of the time each has run to plus the lookahead of what
// joins them (horizon), since nothing they send can reach it sooner. Taken
// in the sweep order (SetSweepOrder; creation order by default), a
// partition whose neighbours ran before it in the sweep finds them ahead
// and runs two lookaheads at once, so that each device's state is read once
// for twice the simulated time it was when every partition ran one window
// per sweep. Time that no partition has work in is skipped.
func (e *Engine) runWindows(until Time) error {
	defer e.select0()
	if e.next == nil {
		e.next = make([]Time, len(e.parts))
		e.doneUntil = make([]Time, len(e.parts))
		for i, p := range e.parts {
			e.cur = p
			e.next[i] = e.nextTime()
		}
		e.neighbours = e.partNeighbours()
		e.prefetching = len(e.parts) >= prefetchMinParts
	}
	L := e.widest
	for !e.stop {
		until = e.takeInterrupt(until)
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
		// nothing anywhere before t0: every partition has run to it
		for i, d := range e.doneUntil {
			if d < t0 {
				e.doneUntil[i] = t0
			}
		}
		// the partitions likely to run in this sweep, for the prefetch
		// pipeline: those with work in the two lookaheads after the time
		// they have run to, the most a sweep can take them (their
		// neighbours that run before them in it move up meanwhile)
		ahead := e.ahead[:0]
		for _, i := range e.sweep {
			if t := e.next[i]; e.prefetching && t < after(e.doneUntil[i], 2*L) && t <= until {
				ahead = append(ahead, int32(i))
			}
		}
		e.ahead = ahead
		k := 0 // ahead[k] is the next listed partition
		for _, i := range e.sweep {
			end := e.horizon(i, until)
			if k < len(ahead) && int(ahead[k]) == i {
				// a step of the prefetch pipeline per listed partition,
				// run or not, so that each level comes once and in order
				e.prefetchAhead(ahead, k, after(end, L))
				k++
			}
			if end <= e.doneUntil[i] {
				continue
			}
			if e.next[i] >= end {
				e.doneUntil[i] = end
				continue
			}
			e.cur = e.parts[i]
			untold := e.cur.warm(e, end)
			t := e.nextTime()
			for t < end {
				e.now, e.cur.now = t, t
				if err := e.step(t); err != nil {
					return err
				}
				t = e.nextTime()
			}
			e.next[i] = min(t, untold)
			e.doneUntil[i] = end
		}
		if e.stalled(t0) {
			e.alignNow(t0)
			return e.stall()
		}
	}
	return nil
}

// horizon is the time partition i may run up to: the least, over its
// neighbours, of the time each has run to plus the lookahead from it, and
// no further than until.
func (e *Engine) horizon(i int, until Time) Time {
	end := until + 1
	if until == Forever {
		end = Forever
	}
	for _, q := range e.neighbours[i] {
		end = min(end, after(e.doneUntil[q.part], q.lookahead))
	}
	return end
}

// after is t+d, or Forever where that would overflow (a partition with no
// neighbours may have run to Forever).
func after(t, d Time) Time {
	if t > Forever-d {
		return Forever
	}
	return t + d
}

// neighbour is a partition another one waits for, with the lookahead from
// it: the least time after one of its edges that anything it sends or
// wakes reaches the other.
type neighbour struct {
	part      int32
	lookahead Time
}

// partNeighbours lists, for each partition, the partitions it waits for,
// each with the least lookahead among what joins them: a link joins its
// ends both ways with its own lookahead (Link.SetLookahead, else the
// engine's), since its items reach the receiver no sooner, and a sender
// that ran further past its receiver would only fill the link; a link
// that returns credits joins its receiver to its sender with the engine's
// lookahead at most, and coupled partitions are joined both ways with
// their coupling's (CoupleWithin, else the engine's). It fixes each
// link's lookahead for the check at delivery, and e.widest, the longest
// lookahead of any neighbour.
func (e *Engine) partNeighbours() [][]neighbour {
	window := e.window()
	from := make([]map[int32]Time, len(e.parts)) // from[i][q]: least lookahead from q to i
	reaches := func(q, i *part, d Time) {
		if q == i {
			return
		}
		if from[i.index] == nil {
			from[i.index] = map[int32]Time{}
		}
		if old, ok := from[i.index][int32(q.index)]; !ok || d < old {
			from[i.index][int32(q.index)] = d
		}
	}
	for _, l := range e.links {
		tx, rx := l.parts()
		if tx == rx {
			continue
		}
		items, credits := l.lookaheads(window)
		reaches(tx, rx, items)
		if credits {
			reaches(rx, tx, min(items, window))
		} else {
			reaches(rx, tx, items) // so that the sender runs no further ahead
		}
	}
	for pair, c := range e.couples {
		d := c.lookahead(window)
		reaches(pair[0], pair[1], d)
		reaches(pair[1], pair[0], d)
	}
	nb := make([][]neighbour, len(e.parts))
	e.widest = window
	for i, m := range from {
		for q, d := range m {
			nb[i] = append(nb[i], neighbour{part: q, lookahead: d})
			e.widest = max(e.widest, d)
		}
		// the same lists whatever the order of the maps
		slices.SortFunc(nb[i], func(a, b neighbour) int { return int(a.part) - int(b.part) })
	}
	return nb
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
