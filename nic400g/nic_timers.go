package nic400g

import "github.com/fabricmodel/fabricmodel/rtlmodel"

// timerEntry asks for QP qp to be looked at again at time at.
type timerEntry struct {
	at rtlmodel.Time
	qp uint32
}

// timerHeap is a binary min-heap ordered by (time, QP): deterministic, and
// stale entries (a QP whose timerAt moved) are dropped when popped.
type timerHeap struct{ s []timerEntry }

func (h *timerHeap) len() int         { return len(h.s) }
func (h *timerHeap) top() *timerEntry { return &h.s[0] }
func (a timerEntry) less(b timerEntry) bool {
	return a.at < b.at || (a.at == b.at && a.qp < b.qp)
}

func (h *timerHeap) push(e timerEntry) {
	h.s = append(h.s, e)
	for i := len(h.s) - 1; i > 0; {
		p := (i - 1) / 2
		if !h.s[i].less(h.s[p]) {
			break
		}
		h.s[i], h.s[p] = h.s[p], h.s[i]
		i = p
	}
}

func (h *timerHeap) pop() timerEntry {
	top := h.s[0]
	n := len(h.s) - 1
	h.s[0] = h.s[n]
	h.s = h.s[:n]
	for i := 0; ; {
		l, m := 2*i+1, i
		if l < n && h.s[l].less(h.s[m]) {
			m = l
		}
		if r := l + 1; r < n && h.s[r].less(h.s[m]) {
			m = r
		}
		if m == i {
			break
		}
		h.s[i], h.s[m] = h.s[m], h.s[i]
		i = m
	}
	return top
}

// schedule makes sure QP q is looked at again at time at.
func (n *NIC) schedule(q *qpState, at rtlmodel.Time) {
	if at == rtlmodel.Forever {
		return
	}
	if q.timerAt != 0 && q.timerAt <= at && q.timerAt > n.h.Now() {
		return
	}
	q.timerAt = at
	n.timers.push(timerEntry{at: at, qp: q.id})
}

// runTimers serves every QP whose time has come.
func (n *NIC) runTimers(now rtlmodel.Time) {
	for n.timers.len() > 0 && n.timers.top().at <= now {
		e := n.timers.pop()
		q := n.qps[e.qp]
		if q == nil || q.timerAt != e.at {
			continue
		}
		q.timerAt = 0
		n.serviceQP(q, now)
	}
}

// serviceQP advances a QP's timers: congestion control, retransmission
// timeout, delayed ACK; then puts it back in the transmit ring if it can
// send, or schedules its next look.
func (n *NIC) serviceQP(q *qpState, now rtlmodel.Time) {
	if q.cc != nil {
		q.cc.Advance(now)
	}
	if q.sinceAck > 0 && q.ackAt != 0 && q.ackAt <= now {
		n.sendAck(q, now, false)
	}
	if q.readAckAt != 0 && q.readAckAt <= now {
		n.readAckDue(q, now)
	}
	if q.rtoAt != 0 && q.rtoAt <= now && len(q.unacked) > 0 {
		n.timeout(q, now)
	}
	if q.readGapAt != 0 && q.readGapAt <= now {
		n.readGapsDue(q, now)
	}
	if q.readRTO != 0 && q.readRTO <= now && len(q.reads) > 0 {
		n.readTimeout(q, now)
	}
	if q.rspRTO != 0 && q.rspRTO <= now {
		n.rspTimeout(q, now)
	}
	n.reconsider(q, now)
}

// reconsider puts q in the transmit ring if it may send now, else
// schedules the earliest time something about it changes.
func (n *NIC) reconsider(q *qpState, now rtlmodel.Time) {
	if q.rtoAt != 0 && q.rtoAt <= now && len(q.unacked) > 0 && q.cc != nil {
		// the timeout passed while the QP was busy sending
		n.timeout(q, now)
	}
	at, ready := n.sendable(q, now)
	if ready {
		if !q.inRing {
			q.inRing = true
			n.ring.Push(q.id)
		}
	}
	if q.cc != nil && (len(q.unacked) > 0 || q.segMsg() != nil || len(q.rsps) > 0) {
		// congestion-control timers matter only while the QP has data to
		// send or in flight; an idle QP catches up in Advance when it
		// wakes, and does not keep the NIC awake
		at = min(at, q.cc.NextEvent())
	}
	if q.rtoAt != 0 && len(q.unacked) > 0 {
		at = min(at, q.rtoAt)
	}
	if q.ackAt != 0 && q.sinceAck > 0 {
		at = min(at, q.ackAt)
	}
	if q.readAckAt != 0 {
		at = min(at, q.readAckAt)
	}
	if q.readRTO != 0 && len(q.reads) > 0 {
		at = min(at, q.readRTO)
	}
	if q.readGapAt != 0 && len(q.reads) > 0 {
		at = min(at, q.readGapAt)
	}
	if q.rspRTO != 0 {
		at = min(at, q.rspRTO)
	}
	if at != rtlmodel.Forever && (at > now || !ready) {
		// a time already past (a congestion-control event or an ACK
		// due that nothing has served yet, the QP not sending now) is
		// served at the next edge
		n.schedule(q, max(at, now+1))
	}
	n.maybeRelease(q)
}

// timeHeap is a min-heap of times (context reads in flight).
type timeHeap struct{ s []rtlmodel.Time }

func (h *timeHeap) len() int           { return len(h.s) }
func (h *timeHeap) min() rtlmodel.Time { return h.s[0] }

func (h *timeHeap) push(t rtlmodel.Time) {
	h.s = append(h.s, t)
	for i := len(h.s) - 1; i > 0; {
		p := (i - 1) / 2
		if h.s[p] <= h.s[i] {
			break
		}
		h.s[i], h.s[p] = h.s[p], h.s[i]
		i = p
	}
}

func (h *timeHeap) pop() {
	n := len(h.s) - 1
	h.s[0] = h.s[n]
	h.s = h.s[:n]
	for i := 0; ; {
		l, m := 2*i+1, i
		if l < n && h.s[l] < h.s[m] {
			m = l
		}
		if r := l + 1; r < n && h.s[r] < h.s[m] {
			m = r
		}
		if m == i {
			return
		}
		h.s[i], h.s[m] = h.s[m], h.s[i]
		i = m
	}
}
