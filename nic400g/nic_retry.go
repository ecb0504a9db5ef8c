package nic400g

import "github.com/fabricmodel/fabricmodel/rtlmodel"

// CompletionStatus is how a work request ended, as the verbs' work
// completion status (ibv_wc_status) says it.
type CompletionStatus uint8

const (
	// StatusOK: the work request completed.
	StatusOK CompletionStatus = iota
	// StatusRetryExceeded: the QP timed out Config.RetryCount + 1 times in
	// a row with no acknowledgement moving it on and failed
	// (IBV_WC_RETRY_EXC_ERR); the message it was sending ends so.
	StatusRetryExceeded
	// StatusFlushed: the work request was queued on, or posted to, a QP
	// that failed (IBV_WC_WR_FLUSH_ERR).
	StatusFlushed
	// StatusLocalLength: the message was longer than MaxMessageBytes
	// (IBV_WC_LOC_LEN_ERR); the QP failed when it came to segment it,
	// and the work requests it had not completed are flushed.
	StatusLocalLength
)

// String names the status.
func (s CompletionStatus) String() string {
	switch s {
	case StatusOK:
		return "ok"
	case StatusRetryExceeded:
		return "retry count exceeded"
	case StatusFlushed:
		return "flushed"
	case StatusLocalLength:
		return "local length error"
	}
	return "status?"
}

// retryOrFail counts a transport timeout of q: it reports whether q may
// resend, or fails q when it has resent Config.RetryCount times since an
// acknowledgement last moved it on.
func (n *NIC) retryOrFail(q *qpState, now rtlmodel.Time) bool {
	if q.retries >= n.cfg.RetryCount {
		n.st.qpFailures.Inc()
		n.failQP(q, now, 0, StatusRetryExceeded)
		return false
	}
	q.retries++
	return true
}

// progressed notes that an acknowledgement or a read response moved q on:
// its timeouts start counting again.
func (q *qpState) progressed() { q.retries = 0 }

// failQP puts q in the error state: its message culprit (an index into
// q.msgs) completes with status, every other it has not completed with
// StatusFlushed, in order, and nothing of them is sent or awaited any
// more. Work requests posted to q later complete at once with
// StatusFlushed (post). The responder side of q is left as it is.
func (n *NIC) failQP(q *qpState, now rtlmodel.Time, culprit int, status CompletionStatus) {
	q.failed = true
	for i, m := range q.msgs {
		s := StatusFlushed
		if i == culprit {
			s = status
		}
		n.failMessage(q, m.wr, m.id, now, s)
	}
	clear(q.msgs)
	q.msgs, q.seg = q.msgs[:0], 0
	q.unacked = q.unackedBuf[:0]
	q.retxQ, q.inflight, q.rtoAt = 0, 0, 0
	q.reads, q.readsPending, q.readRTO, q.readGapAt = q.reads[:0], 0, 0, 0
}

// failMessage completes work request wr (message id of q) with an error
// status.
func (n *NIC) failMessage(q *qpState, wr WorkRequest, id uint32, now rtlmodel.Time, status CompletionStatus) {
	n.st.flushed.Inc()
	visible := n.host.WriteCQE(now)
	n.emitCompletion(Completion{Op: wr.Op, QP: q.id, Msg: id, Bytes: wr.Bytes, Posted: wr.Posted,
		Placed: now, Visible: visible, Status: status}, visible)
}
