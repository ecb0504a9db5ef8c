package rtlmodel

// wakeEntry asks for cs to be evaluated at the edge at time t of its
// clock; key packs (clock, registration order) so the heap compares two
// words.
type wakeEntry struct {
	t   Time
	key uint64
	cs  *compState
}

// newWake builds the entry for cs at t.
func newWake(t Time, clk, ord int, cs *compState) wakeEntry {
	return wakeEntry{t: t, key: uint64(clk)<<32 | uint64(uint32(ord)), cs: cs}
}

// clk is the entry's clock index.
func (a *wakeEntry) clk() int { return int(a.key >> 32) }

// ord is the component's registration order.
func (a *wakeEntry) ord() int { return int(uint32(a.key)) }

func (a *wakeEntry) before(b *wakeEntry) bool {
	return a.t < b.t || (a.t == b.t && a.key < b.key)
}

// wakeHeap is a 4-ary min-heap ordered by (time, clock, registration
// order): half the levels of a binary heap, and a node's children share a
// cache line. Equal keys are the same request: they pop one after the
// other, and the engine's due bitmap counts them once, so neither the order
// of pushes nor the heap's shape shows in what runs.
type wakeHeap struct{ s []wakeEntry }

func (h *wakeHeap) len() int { return len(h.s) }

func (h *wakeHeap) top() *wakeEntry { return &h.s[0] }

func (h *wakeHeap) push(e wakeEntry) {
	h.s = append(h.s, e)
	s := h.s
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 4
		if !e.before(&s[p]) {
			break
		}
		s[i] = s[p]
		i = p
	}
	s[i] = e
}

func (h *wakeHeap) pop() wakeEntry {
	s := h.s
	top := s[0]
	n := len(s) - 1
	last := s[n]
	s[n] = wakeEntry{}
	s = s[:n]
	h.s = s
	if n == 0 {
		return top
	}
	i := 0
	for {
		c := 4*i + 1
		if c >= n {
			break
		}
		m := c
		end := min(c+4, n)
		for j := c + 1; j < end; j++ {
			if s[j].before(&s[m]) {
				m = j
			}
		}
		if !s[m].before(&last) {
			break
		}
		s[i] = s[m]
		i = m
	}
	s[i] = last
	return top
}

// timerHeap holds each component's own plan: the Wake its last Eval
// returned. A component has at most one entry (compState.timer is its
// index, -1 for none), so a plan that a later Eval replaced leaves nothing
// behind; with one entry per sleeping component the heap stays as small
// as the model, where a heap of every plan ever made grows with the
// longest timer (a retransmission timeout re-armed at every Eval).
type timerHeap struct{ s []wakeEntry }

func (h *timerHeap) len() int { return len(h.s) }

func (h *timerHeap) top() *wakeEntry { return &h.s[0] }

// place puts w at index i and records the index in its component.
func (h *timerHeap) place(i int, w wakeEntry) {
	h.s[i] = w
	w.cs.timer = int32(i)
}

// set plans w.cs for w, replacing its earlier plan.
func (h *timerHeap) set(w wakeEntry) {
	i := int(w.cs.timer)
	if i < 0 {
		h.s = append(h.s, w)
		h.up(len(h.s)-1, w)
		return
	}
	old := h.s[i]
	if w.before(&old) {
		h.up(i, w)
	} else {
		h.down(i, w)
	}
}

// remove drops cs's plan, if it has one.
func (h *timerHeap) remove(cs *compState) {
	i := int(cs.timer)
	if i < 0 {
		return
	}
	cs.timer = -1
	n := len(h.s) - 1
	last := h.s[n]
	h.s[n] = wakeEntry{}
	h.s = h.s[:n]
	if i == n {
		return
	}
	if last.before(&h.s[i]) {
		h.up(i, last)
	} else {
		h.down(i, last)
	}
}

// pop removes and returns the earliest plan.
func (h *timerHeap) pop() wakeEntry {
	top := h.s[0]
	h.remove(top.cs)
	return top
}

// up moves w from the hole at i towards the root.
func (h *timerHeap) up(i int, w wakeEntry) {
	s := h.s
	for i > 0 {
		p := (i - 1) / 4
		if !w.before(&s[p]) {
			break
		}
		h.place(i, s[p])
		i = p
	}
	h.place(i, w)
}

// down moves w from the hole at i towards the leaves.
func (h *timerHeap) down(i int, w wakeEntry) {
	s := h.s
	n := len(s)
	for {
		c := 4*i + 1
		if c >= n {
			break
		}
		m := c
		for j := c + 1; j < min(c+4, n); j++ {
			if s[j].before(&s[m]) {
				m = j
			}
		}
		if !s[m].before(&w) {
			break
		}
		h.place(i, s[m])
		i = m
	}
	h.place(i, w)
}
