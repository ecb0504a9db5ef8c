package nic400g

// markLost takes p as no longer in the network: a switch trimmed it, the
// receiver NACKed it, or the sender gave it up at a timeout. Its payload
// leaves inflight, the bytes a window-limited congestion control counts
// against its window, and comes back when it is resent (sendOne); a
// selectively acknowledged packet's payload left inflight when its SACK
// came. This is the pipe of RFC 6675 (§2: "pipe" counts neither lost nor
// selectively acknowledged segments), with a timeout taking every packet
// sent before it as lost, as TCP's does: a resend, like new data, goes
// only when the window has room for it (sendable). Counted in flight until
// acknowledged, a lost packet's resend went at once whatever the window,
// so a sender whose window a trim had cut resent its trimmed packets into
// the queue that trimmed them, and trimmed them again.
func (q *qpState) markLost(p *sentPkt) {
	if !p.lost && !p.sacked {
		q.inflight -= min(q.inflight, uint64(p.payload))
	}
	p.lost = true
}

// markPending queues p for resending; it is lost (markLost) until then.
func (q *qpState) markPending(p *sentPkt) {
	q.markLost(p)
	p.pending = true
	q.retxQ++
}
