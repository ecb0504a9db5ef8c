package rtlmodel

// Watch tells a component which of its links changed: items became visible
// at its end (Link.WatchArrivals) or credits came back to it
// (Link.WatchCredits). Each event is reported from the edge at which it
// becomes visible, so a component with many links can look only at those
// instead of polling every one at every edge; the engine still wakes the
// component for each event as it does without a Watch. Events come out in
// (time, index) order.
//
// The events are a ring kept in that order. They mostly come in order
// already (a link's own events do, and a component's links have similar
// latencies), so an event is put in place by looking back from the newest,
// usually at once; the ring holds only the events in flight.
type Watch struct {
	q Queue[watchEvent]
}

type watchEvent struct {
	at  Time
	idx int
}

func (a watchEvent) after(b watchEvent) bool {
	return a.at > b.at || (a.at == b.at && a.idx > b.idx)
}

// add records that link idx has something visible from at on.
func (w *Watch) add(at Time, idx int) {
	ev := watchEvent{at: at, idx: idx}
	q := &w.q
	q.Push(ev)
	// move it back past the later events
	i := q.n - 1
	for i > 0 {
		prev := &q.buf[(q.head+i-1)&q.mask]
		if !prev.after(ev) {
			break
		}
		q.buf[(q.head+i)&q.mask] = *prev
		i--
	}
	q.buf[(q.head+i)&q.mask] = ev
}

// Next returns the index of a link with an event visible by now and drops
// that event; false when no event is due.
func (w *Watch) Next(now Time) (int, bool) {
	if w.q.n == 0 || w.q.Front().at > now {
		return 0, false
	}
	return w.q.Pop().idx, true
}
