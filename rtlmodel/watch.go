package rtlmodel

// Watch tells a component which of its links changed: items became visible
// at its end (Link.WatchArrivals) or credits came back to it
// (Link.WatchCredits). Each event is reported from the edge at which it
// becomes visible, so a component with many links can look only at those
// instead of polling every one at every edge; the engine still wakes the
// component for each event as it does without a Watch. Events come out in
// (time, index) order.
type Watch struct {
	h wakeHeap // events as (at, link index) in the key, no component
}

// add records that link idx has something visible from at on.
func (w *Watch) add(at Time, idx int) { w.h.push(wakeEntry{t: at, key: uint64(idx)}) }

// Next returns the index of a link with an event visible by now and drops
// that event; false when no event is due.
func (w *Watch) Next(now Time) (int, bool) {
	if w.h.len() == 0 || w.h.top().t > now {
		return 0, false
	}
	return int(w.h.pop().key), true
}
