package nic400g

import "github.com/fabricmodel/fabricmodel/rtlmodel"

// A responder sends a read's responses no further than RecvWindow
// packets past the point its requester's feedback says the read is placed
// in order, as a writer sends no further than RecvWindow packets past its
// oldest unacknowledged one (psnWindowFull): a requester placing
// responses out of order holds those within its window past a gap, and
// drops the rest, which it then asks for again (askBeyond). Sent on
// regardless, in a trimming leaf-spine's permutation of 4 MB reads (1 KB
// MTU, the default window of 1,024), 42,357 responses came beyond the
// requesters' windows and were sent again.
//
// A job for part of a read (nic_read_range.go) serves responses within
// the window, and it is what moves the window on: when the head job waits
// for the window, the first such job behind it goes ahead.

// jobInWindow reports whether the head read job's next response is within
// the requester's window, making the first job for part of a read the
// head when it is not.
func (n *NIC) jobInWindow(q *qpState, now rtlmodel.Time) bool {
	if n.inWindow(q, &q.rsps[0]) {
		return true
	}
	for i := 1; i < len(q.rsps); i++ {
		if q.rsps[i].part && n.inWindow(q, &q.rsps[i]) {
			j := q.rsps[i]
			copy(q.rsps[1:i+1], q.rsps[:i])
			q.rsps[0] = j
			n.startJobReads(&q.rsps[0], now)
			return true
		}
	}
	return false
}

// inWindow reports whether job j's next response is fewer than RecvWindow
// packets past the point its read is placed in order. With no record of
// the read's flight (none sent yet, or all given up at the responses'
// timer) nothing holds it back.
func (n *NIC) inWindow(q *qpState, j *readJob) bool {
	for i := range q.rspOut {
		if f := &q.rspOut[i]; f.msg == j.msg {
			return j.offset < f.placed || (j.offset-f.placed)/uint64(n.cfg.MTU) < uint64(n.cfg.RecvWindow)
		}
	}
	return true
}
