package nic400g

// stopTimerIfNothingInFlight stops q's retransmission timer when every
// packet it awaits an acknowledgement for is taken as lost (queued for
// resending, or given up at a timeout and released as ACKs return) or
// selectively acknowledged: no packet is in flight for the timer to time.
// The first resend starts it again (sendOne), as a stopped timer starts
// with each transmission (RFC 6298 (5.1)). A sender that paces its
// resends slower than the timeout (Swift with its window under one MSS
// sends one packet every srtt·MSS/cwnd, FACTS 2.4) would otherwise count
// timeouts for packets it holds itself, and fail the QP after
// Config.RetryCount of them without having resent one.
//
// It costs nothing while no packet is queued for resending, the loss-free
// path; with some queued it walks to the first packet in flight.
func (q *qpState) stopTimerIfNothingInFlight() {
	if q.retxQ == 0 || q.rtoAt == 0 {
		return
	}
	for i := range q.unacked {
		if p := &q.unacked[i]; !p.lost && !p.sacked {
			return
		}
	}
	q.rtoAt = 0
}
