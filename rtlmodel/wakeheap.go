package rtlmodel

// wakeEntry asks for comp to be evaluated at the edge at time t.
type wakeEntry struct {
	t   Time
	dom int
	ord int
	cs  *compState
}

func (a *wakeEntry) before(b *wakeEntry) bool {
	if a.t != b.t {
		return a.t < b.t
	}
	if a.dom != b.dom {
		return a.dom < b.dom
	}
	return a.ord < b.ord
}

// wakeHeap is a binary min-heap ordered by (time, domain, registration
// order). Equal keys are the same request and are dropped when popped, so
// the order of pushes never shows in the order of pops.
type wakeHeap struct{ s []wakeEntry }

func (h *wakeHeap) len() int { return len(h.s) }

func (h *wakeHeap) top() *wakeEntry { return &h.s[0] }

func (h *wakeHeap) push(e wakeEntry) {
	h.s = append(h.s, e)
	i := len(h.s) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !h.s[i].before(&h.s[p]) {
			break
		}
		h.s[i], h.s[p] = h.s[p], h.s[i]
		i = p
	}
}

func (h *wakeHeap) pop() wakeEntry {
	top := h.s[0]
	n := len(h.s) - 1
	h.s[0] = h.s[n]
	h.s[n] = wakeEntry{}
	h.s = h.s[:n]
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && h.s[r].before(&h.s[l]) {
			m = r
		}
		if !h.s[m].before(&h.s[i]) {
			break
		}
		h.s[i], h.s[m] = h.s[m], h.s[i]
		i = m
	}
	return top
}
