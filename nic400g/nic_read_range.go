package nic400g

import (
	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// Trimmed READ responses asked for by range (Config.OOOReads). A switch
// that trims a response tells the requester exactly which one was lost.
// A requester that places responses out of order holds those around it,
// so instead of issuing the read again for the rest of the message (IBTA's
// retry, which sends again every response it holds past the gap) it asks
// for the trimmed responses alone: a READ request whose PSN is the first
// trimmed response's and whose RETH (or SES) names its offset and the
// bytes of the run of trimmed responses queued with it. IBTA lets a
// duplicate READ request ask for any part of the original; the responder
// serves it as a job of its own behind those it has, and the job still
// serving the rest of the read goes on. That it asks for trimmed
// responses only, and not for the rest of a read whose requester dropped
// what came after the gap, the request says in flagTrimNAK, a model
// extension as the read feedback is: IBTA's requester has no other kind.
// Trimmed responses are then sent again once each, as a writer's are
// after a trim NACK. Responses the requester dropped for coming beyond
// its window are asked for the same way (askBeyond).
//
// A trimmed response sent before the last request for the rest of the
// read left is covered by that request, and a request for the rest queued
// covers every range queued with it. A gap whose response was asked for
// waits for it (suspectGap), and a range whose responses are lost again
// without a trim is recovered by the timeout, with the rest of the read.
// A timer asking again for a range not answered within twice the longest
// round trip a request of the read had taken cut the timeouts on
// TestOutOfOrderReadsSurviveTrimsDropsAndReordering's wire from 398 to
// 312, but fired early under congestion, whose queues grow faster than
// the round trips learned: in the trimmed incast of
// fabric.TestTrimmedReadsAreAskedForAlone under Swift the reads took
// 2,168.05 us instead of 183.47 us.
// A gap found overdue without a trim (a drop) still has the read issued
// again for the rest. Asking for such gaps by range too, with a timer to
// ask again, measured worse: over the 149 scenarios of seeds 43 and 44
// of scripts/randomscenarios.py --ooo-reads that complete, the job times'
// geometric mean against the build before these ranges was 1.0167 and
// 0.9795 with it, 0.9989 and 0.9643 without. A range's response waits
// behind the job serving the rest of the read, so no timer told a lost
// one from a late one.

// psnRange is the PSNs [from, to) of a read's responses.
type psnRange struct{ from, to PSN }

// askTrimmed takes the trim of read r's response psn, sent at sent: the
// response is queued to be asked for, unless it is placed already or a
// request for the rest covers it.
func (n *NIC) askTrimmed(q *qpState, r *readOut, psn PSN, sent, now rtlmodel.Time) {
	if r.reissue || sent < r.restSent || PSNCompare(psn, r.next) < 0 || r.held != nil && r.held.Received(psn) {
		return
	}
	n.queueAsk(q, r, psnRange{from: psn, to: psn.Next()}, now)
}

// queueAsk queues a request for the responses a of read r, joined to the
// range queued last when it follows it.
func (n *NIC) queueAsk(q *qpState, r *readOut, a psnRange, now rtlmodel.Time) {
	if k := len(r.asks) - 1; k >= 0 && r.asks[k].to == a.from {
		r.asks[k].to = a.to
		return
	}
	if !r.pending() {
		q.readsPending++
	}
	r.asks = append(r.asks, a)
	n.reconsider(q, now)
}

// sendReadRange sends the request for read r's first queued range, and
// keeps the range until its responses are placed.
func (n *NIC) sendReadRange(q *qpState, r *readOut, now rtlmodel.Time) {
	a := r.asks[0]
	r.asks = append(r.asks[:0], r.asks[1:]...)
	first, mtu, bytes := PSN(r.m.firstPSN), uint64(n.cfg.MTU), r.m.wr.Bytes
	off := min(uint64(PSNDiff(a.from, first))*mtu, bytes)
	end := min(uint64(PSNDiff(a.to, first))*mtu, bytes)
	r.asked = append(r.asked, a)
	n.st.readRanges.Inc()
	n.sendReadRequestFor(q, r, a.from, off, end, flagReadReq|flagTrimNAK, now)
}

// askBeyond asks, once read r's next response has moved, for the
// responses from it that came beyond the requester's window and were
// dropped (the last of them r.beyond): the run from the next response to
// the first held past it, within the window. A read issued again for the
// rest covers them, and so do ranges already queued or asked for.
func (n *NIC) askBeyond(q *qpState, r *readOut, now rtlmodel.Time) {
	if PSNCompare(r.next, r.beyond) > 0 {
		r.beyondSet = false
		return
	}
	if r.reissue || r.askedFor() {
		return
	}
	to := r.beyond.Next()
	if h, ok := r.held.FirstHeld(); ok && PSNCompare(h, to) < 0 {
		to = h
	}
	if lim := r.next.Add(uint32(r.held.Size())); PSNCompare(lim, to) < 0 {
		to = lim
	}
	for _, a := range r.asks {
		if PSNCompare(a.from, r.next) <= 0 && PSNCompare(r.next, a.to) < 0 {
			return
		}
	}
	n.queueAsk(q, r, psnRange{from: r.next, to: to}, now)
}

// askedFor reports whether read r's next response was asked for again by
// a range whose responses have not all come, and forgets the ranges
// whose responses have.
func (r *readOut) askedFor() bool {
	k := 0
	for _, a := range r.asked {
		if PSNCompare(a.to, r.next) > 0 {
			r.asked[k] = a
			k++
		}
	}
	r.asked = r.asked[:k]
	for _, a := range r.asked {
		if PSNCompare(a.from, r.next) <= 0 {
			return true
		}
	}
	return false
}

// askedEnd is the offset one past the last byte read request d asks for:
// its offset and the DMA length of its RETH (or the request length of
// UET's SES), which close its header, within the message.
func (n *NIC) askedEnd(d *packet.Desc) uint64 {
	h := d.Header()
	var asked uint32
	if n.cfg.Stack == UET {
		var ses packet.SESStandard
		if len(h) < packet.SESStandardLen || ses.Decode(h[len(h)-packet.SESStandardLen:]) != nil {
			return d.Meta.Length
		}
		asked = ses.RequestLength
	} else {
		var reth packet.RETH
		if len(h) < packet.RETHLen || reth.Decode(h[len(h)-packet.RETHLen:]) != nil {
			return d.Meta.Length
		}
		asked = reth.DMALen
	}
	if asked == 0 {
		return d.Meta.Length
	}
	return min(d.Meta.Offset+uint64(asked), d.Meta.Length)
}

// takeReadRange is the responder's side of request r for part of a read,
// responses trimmed or dropped beyond the requester's window: their
// bytes leave the flight until sent again (rspRangeLost), the job serving
// the rest of the read goes on, and each response asked for is a loss to
// the congestion control, as a trim NACK is to a writer's (LossTrimmed).
// It returns the bytes the range's job will send again, which no earlier
// request asked credit for under EQDS.
func (n *NIC) takeReadRange(q *qpState, r earlyRead, now rtlmodel.Time) uint64 {
	left := n.rspRangeLost(q, r.msg, r.length, r.offset, r.end, now)
	n.st.rxReadRanges.Inc()
	if q.eq == nil {
		mtu := uint64(n.cfg.MTU)
		for k := (r.end - r.offset + mtu - 1) / mtu; k > 0; k-- {
			q.cc.OnLoss(now, LossTrimmed)
		}
	} else {
		q.eq.OnRewind(now, left)
	}
	return r.end - r.offset
}
