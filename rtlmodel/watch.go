package rtlmodel

import "fmt"

// Watch tells a component which of its links changed: items became visible
// at its end (Link.WatchArrivals) or credits came back to it
// (Link.WatchCredits). Each event is reported from the edge at which it
// becomes visible, so a component with many links can look only at those
// instead of polling every one at every edge. Events come out in (time,
// index) order.
//
// The events are a ring kept in that order. They mostly come in order
// already (a link's own events do, and a component's links have similar
// latencies), so an event is put in place by looking back from the newest,
// usually at once; the ring holds only the events in flight. The events
// told when a window begins, link by link, are appended and put in order
// once (watch_batch.go). An event is
// one word, its time after the watch's base above its link index, so that
// the order is the words' and moving events moves 8 bytes each; the base
// moves when an event falls outside the span the word holds (rebase).
//
// The watch also wakes its component for its events, as the links would
// without it, but with one wake asked at a time: for its earliest event,
// and after each evaluation of the component, once the wake asked has
// come, for its first event still ahead. The component is evaluated at the
// same edges, whether or not it takes every event due, while its
// partition's wake heap holds an entry per watch instead of one per event
// time (a traffic manager has a frame in flight on most of its ports).
type Watch struct {
	q    Queue[watchEvent]
	base Time // the events' times are base + their word's high bits
	// the component woken for the events (nil: nobody, as in tests of
	// the ring alone) and the time of the wake asked last
	e     *Engine
	cs    *compState
	armed Time
	// batching: events told in a window's read-ahead are being appended
	// unordered (addAhead), batchN of them held before it began and
	// batchMin the earliest since; sorted is endBatch's scratch (for a
	// ring that wraps, and for the events set aside in its merge)
	batching bool
	batchN   int
	batchMin Time
	sorted   []watchEvent
}

// bind makes w wake cs for its events; a watch serves one component.
func (w *Watch) bind(e *Engine, cs *compState) {
	if w.cs != nil && w.cs != cs {
		panic("rtlmodel: a Watch shared by " + w.cs.path + " and " + cs.path)
	}
	if w.cs == nil {
		cs.watches = append(cs.watches, w)
	}
	w.e, w.cs = e, cs
}

// checkIndex panics for a link index a watch event cannot hold: models
// give their links indices below their count of links.
func checkIndex(idx int) {
	if idx < 0 || idx > watchIndexMax {
		panic(fmt.Sprintf("rtlmodel: watch index %d is beyond the %d a watch holds", idx, watchIndexMax))
	}
}

// rearm runs after each evaluation of the watch's component at now: when
// the wake asked last has come, it asks for the first event after now
// (events due and not taken stay for the component's next evaluation, as
// an item stays on its link).
func (w *Watch) rearm(now Time) {
	if w.armed > now {
		return // asked for an event still ahead, the earliest
	}
	q := &w.q
	for i := 0; i < q.n; i++ {
		if at := w.at(q.buf[(q.head+i)&q.mask]); at > now {
			w.armed = at
			w.e.wakeFor(w.cs, at)
			return
		}
	}
}

// watchEvent is an event's time after the watch's base, in its bits above
// the low watchIndexBits, which hold its link index: events compare as
// their words.
type watchEvent uint64

const (
	watchIndexBits = 20
	watchIndexMax  = 1<<watchIndexBits - 1
	// watchSpan is the longest time after the base an event may hold
	// (17.6 s); watchSlack, what a rebase leaves below the earliest
	// event, for events that come before it
	watchSpan  = Time(1)<<(64-watchIndexBits) - 1
	watchSlack = watchSpan >> 4
)

func (w *Watch) event(at Time, idx int) watchEvent {
	return watchEvent(uint64(at-w.base)<<watchIndexBits | uint64(idx))
}

func (w *Watch) at(ev watchEvent) Time { return w.base + Time(ev>>watchIndexBits) }

func (ev watchEvent) index() int { return int(ev & watchIndexMax) }

// rebase moves the base so that the events held and one at at fit the
// span: to the earliest of them, less the slack. Events spread wider
// than the span (a link 17 s long) stop the run. It returns at, or, for
// a run it stops, the time the event at at is held at.
func (w *Watch) rebase(at Time) Time {
	q := &w.q
	lo, hi := at, at
	for i := 0; i < q.n; i++ { // in order but for a batch's (addAhead)
		t := w.at(q.buf[(q.head+i)&q.mask])
		lo, hi = min(lo, t), max(hi, t)
	}
	base := lo - min(lo, watchSlack)
	if hi-base > watchSpan {
		err := fmt.Errorf("rtlmodel: a watch's events span %v to %v, beyond the %v one watch holds", lo, hi, watchSpan-watchSlack)
		if w.e == nil {
			panic(err.Error())
		}
		w.e.fail(err)
		base = hi - watchSpan // the run stops after this edge; keep the ring ordered
	}
	for i := 0; i < q.n; i++ {
		ev := &q.buf[(q.head+i)&q.mask]
		*ev = watchEvent(uint64(max(w.at(*ev), base)-base)<<watchIndexBits | uint64(ev.index()))
	}
	w.base = base
	return max(at, base)
}

// add records that link idx has something visible from at on.
func (w *Watch) add(at Time, idx int) {
	if w.batching {
		w.endBatch()
	}
	if at < w.base || at-w.base > watchSpan {
		at = w.rebase(at)
	}
	ev := w.event(at, idx)
	q := &w.q
	q.Push(ev)
	// Find its place among the later events, then move those up one slot
	// at once (in two parts when they wrap the ring). Mostly it is the
	// last place; a component watching many links that are told of their
	// arrivals link by link (a traffic manager's ports) puts an event past
	// many others, so the place is found by halving.
	buf, head, mask := q.buf, q.head, q.mask
	i := q.n - 1
	if i > 0 && buf[(head+i-1)&mask] > ev {
		// the first of events 0..i-1 after ev: one is (i-1)
		lo, hi := 0, i-1
		for lo < hi {
			mid := int(uint(lo+hi) >> 1)
			if buf[(head+mid)&mask] > ev {
				hi = mid
			} else {
				lo = mid + 1
			}
		}
		i = lo
	}
	if i < q.n-1 {
		from, last := (head+i)&mask, (head+q.n-1)&mask
		if from < last {
			copy(buf[from+1:last+1], buf[from:last])
		} else {
			copy(buf[1:last+1], buf[:last])
			buf[0] = buf[mask]
			copy(buf[from+1:], buf[from:mask])
		}
		buf[from] = ev
	}
	if w.e != nil && (q.n == 1 || at < w.armed || w.armed <= w.cs.lastTime) {
		// the earliest event ahead: a wake asked before is for a later
		// one, which stays due, or has come already (the events left
		// are due ones the component did not take)
		w.armed = at
		w.e.wakeFor(w.cs, at)
	}
}

// Next returns the index of a link with an event visible by now and drops
// that event; false when no event is due.
func (w *Watch) Next(now Time) (int, bool) {
	q := &w.q
	if q.n == 0 || w.base+Time(q.buf[q.head]>>watchIndexBits) > now {
		return 0, false
	}
	ev := q.buf[q.head] // a word without pointers: the slot need not be cleared
	q.head = (q.head + 1) & q.mask
	q.n--
	return ev.index(), true
}
