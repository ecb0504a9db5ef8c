package rtlmodel

import "slices"

// A partition's window begins by telling the receivers of what arrives in
// it (part.warm), link after link: a traffic manager's arrival watch is
// told each of its ports' frames in turn, and most of those events come
// before some it already holds, so that each one put in place would move
// the later ones up. The events told in a window's read-ahead are instead
// appended as they come and put in order once, when the read-ahead ends
// (endBatch), with one wake for the earliest of them. The watch then holds
// the events it would hold had each been added in place, and its
// component is evaluated at the same edges: the wakes each add would have
// asked for are for event times, each of which it is woken for anyway
// (rearm asks for the first event after each evaluation).

// addAhead records, during the read-ahead of partition p's window, that
// link idx has something visible from at on.
func (w *Watch) addAhead(p *part, at Time, idx int) {
	if !w.batching {
		w.batching, w.batchN, w.batchMin = true, w.q.n, Forever
		p.batched = append(p.batched, w)
	}
	if at < w.base || at-w.base > watchSpan {
		at = w.rebase(at)
	}
	w.q.Push(w.event(at, idx))
	w.batchMin = min(w.batchMin, at)
}

// endBatch puts the events added since the batch began in order among
// those held before it (which are in order) and asks for the wake add
// would have left asked: for the earliest event added, when the watch
// held none before, or that event comes before the wake asked, or the
// wake asked has come.
func (w *Watch) endBatch() {
	w.batching = false
	q := &w.q
	held, added := w.batchN, q.n-w.batchN
	if added == 0 {
		return
	}
	if q.head+q.n > len(q.buf) {
		// the events wrap the ring: move them to its first slot
		w.sorted = w.sorted[:0]
		for i := 0; i < q.n; i++ {
			w.sorted = append(w.sorted, q.buf[(q.head+i)&q.mask])
		}
		copy(q.buf, w.sorted)
		q.head = 0
	}
	all := q.buf[q.head : q.head+q.n]
	newer := all[held:]
	if added > 1 {
		slices.Sort(newer)
	}
	if held > 0 && newer[0] < all[held-1] {
		// merge the two runs from the back, the added ones set aside
		w.sorted = append(w.sorted[:0], newer...)
		i, j := held-1, added-1
		for o := q.n - 1; j >= 0; o-- {
			if i >= 0 && all[i] > w.sorted[j] {
				all[o] = all[i]
				i--
			} else {
				all[o] = w.sorted[j]
				j--
			}
		}
	}
	if w.e != nil && (held == 0 || w.batchMin < w.armed || w.armed <= w.cs.lastTime) {
		w.armed = w.batchMin
		w.e.wakeFor(w.cs, w.batchMin)
	}
}

// endBatches ends the batches of the watches told of arrivals in the
// read-ahead just done.
func (p *part) endBatches() {
	for i, w := range p.batched {
		w.endBatch()
		p.batched[i] = nil
	}
	p.batched = p.batched[:0]
}
