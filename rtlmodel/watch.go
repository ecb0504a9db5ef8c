package rtlmodel

// Watch tells a component which of its links changed: items became visible
// at its end (Link.WatchArrivals) or credits came back to it
// (Link.WatchCredits). Each event is reported from the edge at which it
// becomes visible, so a component with many links can look only at those
// instead of polling every one at every edge; the engine still wakes the
// component for each event as it does without a Watch. Events come out in
// (time, index) order.
type Watch struct {
	h []watchEvent // 4-ary min-heap on (at, idx)
}

type watchEvent struct {
	at  Time
	idx int
}

func (a watchEvent) before(b watchEvent) bool {
	return a.at < b.at || (a.at == b.at && a.idx < b.idx)
}

// add records that link idx has something visible from at on.
func (w *Watch) add(at Time, idx int) {
	ev := watchEvent{at: at, idx: idx}
	w.h = append(w.h, ev)
	s := w.h
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 4
		if !ev.before(s[p]) {
			break
		}
		s[i] = s[p]
		i = p
	}
	s[i] = ev
}

// Next returns the index of a link with an event visible by now and drops
// that event; false when no event is due.
func (w *Watch) Next(now Time) (int, bool) {
	s := w.h
	if len(s) == 0 || s[0].at > now {
		return 0, false
	}
	top := s[0]
	n := len(s) - 1
	last := s[n]
	s = s[:n]
	w.h = s
	if n > 0 {
		i := 0
		for {
			c := 4*i + 1
			if c >= n {
				break
			}
			m := c
			for j := c + 1; j < min(c+4, n); j++ {
				if s[j].before(s[m]) {
					m = j
				}
			}
			if !s[m].before(last) {
				break
			}
			s[i] = s[m]
			i = m
		}
		s[i] = last
	}
	return top.idx, true
}

// Len returns the events not yet taken (due or not).
func (w *Watch) Len() int { return len(w.h) }
