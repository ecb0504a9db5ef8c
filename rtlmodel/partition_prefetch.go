package rtlmodel

import "unsafe"

// A sweep runs the partitions with work one after the other, and each
// finds its own state (its fields, the links into it, the items on them
// and what they point to) evicted by the rest of the fabric since its last
// run. Reading those lines when the partition begins (warm) overlaps
// their misses with each other, but not with work: each level of the chain
// (partition, list of links, link, queued item, descriptor) waits for the
// one before. So while one partition runs, the kernel prefetches for the
// next ones, a level of the chain each: the partition prefetchDepth ahead
// gets its fields, the one after it its list of links, and so on, until
// the partition about to run finds the whole chain in the caches. A
// prefetch changes nothing (Prefetch), so neither does the pipeline.

// prefetchDepth is how many partitions ahead of the running one the
// pipeline reaches: one level of the chain per partition.
const prefetchDepth = 6

// prefetchMinParts is the fewest partitions a model needs for the kernel
// to run the pipeline: a smaller one keeps its state in the caches from
// one sweep to the next, and prefetching it costs more than it saves: a
// fabric of 4 endpoints (7 partitions) ran 13 % slower with it and one of
// 32 (40 partitions) about 10 % slower, one of 256 endpoints (288
// partitions) as fast, and one of 1024 (1088 partitions) about 13 %
// faster (alternating runs, before partitions ran ahead of each other).
var prefetchMinParts = 128

// PrefetchLines prefetches the lines of the n bytes from p (Prefetch).
func PrefetchLines(p unsafe.Pointer, n uintptr) { prefetchLines(p, n) }

// Prefetcher is a component that can name the lines its next evaluation
// reads, so that the kernel prefetches them while the partitions before
// its own run. Prefetch is called for levels 0 to PrefetchLevels-1, one
// partition's run apart: at level 0 the component prefetches its own
// fields (without reading them: they are not in the caches yet), at each
// further level what the fields prefetched at the level before point to,
// now that they can be read. It must change nothing (Prefetch).
type Prefetcher interface {
	Prefetch(level int)
}

// PrefetchLevels is the number of levels a Prefetcher is asked for.
const PrefetchLevels = 5

// maxPrefetchers is how many of a partition's components are asked to
// prefetch (the first in registration order that are Prefetchers): they
// are kept in the partition's own fields, so that level 0 needs no read
// of a list first.
const maxPrefetchers = 12

// prefetchStage prefetches level stage (0 first) of what the partition's
// next run reads: its fields; the list of links delivered to, the
// first plan of its timer heap and its list of clocks; those links, the
// component of that plan and the clocks; the links' first queued items;
// what the items point to, with the receivers told of them; and, from
// stage 1 on, its prefetchers' levels.
func (p *part) prefetchStage(stage int, end Time) {
	switch stage {
	case 0:
		prefetchLines(unsafe.Pointer(p), unsafe.Sizeof(*p))
		return
	case 1:
		if len(p.arriving) > 0 {
			prefetchLines(unsafe.Pointer(unsafe.SliceData(p.arriving)), uintptr(len(p.arriving))*unsafe.Sizeof(p.arriving[0]))
		}
		if len(p.timers.s) > 0 {
			prefetch(unsafe.Pointer(&p.timers.s[0]))
		}
		if len(p.clocks) > 0 {
			prefetch(unsafe.Pointer(&p.clocks[0]))
		}
	case 2:
		for _, l := range p.arriving {
			l.prefetchLink()
		}
		if len(p.timers.s) > 0 {
			prefetch(unsafe.Pointer(p.timers.s[0].cs))
		}
		for _, c := range p.clocks[:min(len(p.clocks), maxPrefetchers)] {
			prefetchLines(unsafe.Pointer(c), unsafe.Sizeof(*c))
		}
	case 3:
		for _, l := range p.arriving {
			l.prefetchQueued()
		}
	case 4:
		for _, l := range p.arriving {
			l.prefetchItems(end)
		}
	}
	for _, c := range p.prefetchers[:p.nPrefetchers] {
		c.Prefetch(stage - 1)
	}
}

// prefetchAhead runs the pipeline before the k-th partition of the sweep's
// list ahead runs: each partition up to prefetchDepth behind it in the
// list gets the level of its distance. Past the end of the list it goes on
// from its start: the partitions with work in the next sweep are mostly
// those of this one, and so its first partitions find their state
// prefetched too.
func (e *Engine) prefetchAhead(ahead []int32, k int, end Time) {
	n := len(ahead)
	j := k // ahead[j] is the partition s places after the k-th, wrapped
	for s := 1; s <= min(prefetchDepth, n-1); s++ {
		if j++; j == n {
			j = 0
		}
		e.parts[ahead[j]].prefetchStage(prefetchDepth-s, end)
	}
}

// queuedAhead is how many queued items of a link the pipeline prefetches.
// A run of two wire lookaheads (about 250 ns each) holds up to six 4 KB
// frames of a 400G port; prefetching three, six or eight of them ran
// within the noise of each other on the 1024-endpoint fabric.
const queuedAhead = 3

// prefetchLink prefetches the lines of the link that reading it ahead and
// telling its receiver read.
func (l *Link[T]) prefetchLink() {
	p := unsafe.Pointer(l)
	prefetch(p)
	prefetch(unsafe.Add(p, unsafe.Offsetof(l.told)))
	prefetch(unsafe.Add(p, unsafe.Offsetof(l.arrivals)))
	prefetch(unsafe.Add(p, unsafe.Offsetof(l.q)))
	prefetch(unsafe.Add(p, unsafe.Offsetof(l.readItem)))
}

// prefetchQueued prefetches the link's first queued items.
func (l *Link[T]) prefetchQueued() {
	q := &l.q
	for i := 0; i < min(q.n, queuedAhead); i++ {
		prefetch(unsafe.Pointer(&q.buf[(q.head+i)&q.mask]))
	}
}

// prefetchItems prefetches, for the items arriving before end, what
// PrefetchWith says they point to, and what telling the receiver of them
// reads (its watch or its state).
func (l *Link[T]) prefetchItems(end Time) {
	q := &l.q
	if q.n == 0 {
		return
	}
	if l.arrivals != nil {
		prefetch(unsafe.Pointer(l.arrivals))
	} else {
		prefetch(unsafe.Pointer(l.toCS))
	}
	if l.prefetchItem == nil {
		return
	}
	for i := 0; i < min(q.n, queuedAhead); i++ {
		f := &q.buf[(q.head+i)&q.mask]
		if f.at >= end {
			break
		}
		l.prefetchItem(f.item)
	}
}

// Prefetch prefetches the lines of the link a send, a delivery, a Recv and
// a credit return read (its first five), for a component's Prefetcher.
func (l *Link[T]) Prefetch() { prefetchLines(unsafe.Pointer(l), unsafe.Offsetof(l.transfers)+8) }

// PrefetchCredits prefetches the slot of the sender's next credit return,
// which its next credit check or the next return reads (read the link
// first: Prefetch, a level before).
func (l *Link[T]) PrefetchCredits() {
	if r := &l.returns; len(r.buf) > 0 {
		prefetch(unsafe.Pointer(&r.buf[r.head]))
	}
}

// PrefetchQueue prefetches the queue entries the link's next Recv and next
// Send touch: the oldest item and the free slot behind the newest (read
// the link first: Prefetch, a level before).
func (l *Link[T]) PrefetchQueue() {
	q := &l.q
	if len(q.buf) == 0 {
		return
	}
	prefetch(unsafe.Pointer(&q.buf[q.head]))
	prefetch(unsafe.Pointer(&q.buf[(q.head+q.n)&q.mask]))
}

// PrefetchWith sets what the kernel prefetches of an item arriving in a
// run of the receiver's partition before that run begins (Prefetch, say the lines
// of a descriptor it points to), as ReadAheadWith sets what is read. Call
// it before the run.
func (l *Link[T]) PrefetchWith(fn func(T)) { l.prefetchItem = fn }

// Prefetch prefetches the watch's oldest event, which its component reads
// first (read the watch first: it is a field of the component, prefetched
// a level before).
func (w *Watch) Prefetch() {
	if q := &w.q; q.n > 0 {
		prefetch(unsafe.Pointer(&q.buf[q.head]))
	}
}

// Pending returns the number of events not taken yet, due or not: what a
// component's Prefetch reads to tell whether its next evaluation has
// events to take.
func (w *Watch) Pending() int { return w.q.n }
