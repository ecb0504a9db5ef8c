package nic400g

import "github.com/fabricmodel/fabricmodel/rtlmodel"

// A gap among out-of-order read responses (Config.OOOReads) is taken as
// a loss only once its response is overdue, in the manner of RACK (RFC
// 8985): the responder sends a read's responses in PSN order, so the
// gap's response left before a response past it that has come, sent at
// sent, and should have arrived by sent plus the longest one-way delay
// any of the read's responses took, and a quarter of that for the
// spread of paths (E). Sprayed responses that merely overtake one
// another no longer make the read be issued again, but for the first
// reordering a read meets, which may come before it has seen its slowest
// path.

// suspectGap is called when ReorderTolerance responses are held past the
// gap at r.next, the latest sent at sent: the read is issued again at
// once if the gap's response is overdue, else when it will be, unless it
// comes first (readGapsDue).
func (n *NIC) suspectGap(q *qpState, r *readOut, sent, now rtlmodel.Time) {
	if r.gapSet && r.gapAt == r.next || r.askedFor() {
		return // issued again for this gap already, or asked for as trimmed
	}
	due := sent + r.maxOWD + r.maxOWD/4
	if sent == 0 || due <= now {
		r.gapDue = 0
		n.readGap(q, r, now)
		return
	}
	if r.gapDue != 0 && r.gapDuePSN == r.next {
		return // waiting for this gap already
	}
	r.gapDue, r.gapDuePSN = due, r.next
	if q.readGapAt == 0 || due < q.readGapAt {
		q.readGapAt = due
		n.schedule(q, due)
	}
}

// readGapsDue issues again each read whose gap's response is overdue and
// still missing, and keeps the deadlines of the others.
func (n *NIC) readGapsDue(q *qpState, now rtlmodel.Time) {
	q.readGapAt = 0
	for i := range q.reads {
		r := &q.reads[i]
		switch {
		case r.gapDue == 0:
		case r.gapDuePSN != r.next:
			r.gapDue = 0 // the gap filled
		case r.gapDue <= now:
			r.gapDue = 0
			if !r.askedFor() {
				n.readGap(q, r, now)
			}
		case q.readGapAt == 0 || r.gapDue < q.readGapAt:
			q.readGapAt = r.gapDue
		}
	}
}
