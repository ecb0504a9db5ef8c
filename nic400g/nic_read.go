package nic400g

import (
	"math"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// RDMA READ (FACTS 1.2). The requester sends one RDMA_READ_REQUEST whose
// RETH names where to start and how many bytes to return, and reserves
// the PSNs of the responses: a read of N packets takes N PSNs. The
// responder answers with READ_RESPONSE_FIRST/MIDDLE/LAST/ONLY packets
// (AETH on FIRST, LAST and ONLY) carrying those PSNs, paced and gated by
// the congestion control of its QP like data it writes; it keeps no copy
// of them. The requester takes responses in PSN order only; a gap, a
// trimmed response or no progress for an RTO makes it issue the read
// again from the first missing PSN (a new request for the rest, IBTA's
// retry), which the responder serves as a duplicate request. With
// Config.OOOReads it places responses where their PSNs say
// (nic_read_place.go) and asks for a trimmed response alone
// (nic_read_range.go). The requester completes the read when its last
// byte is placed: the data written to host memory, then the CQE.
//
// The requester returns coalesced feedback on responses (an ACK-form frame
// with flagReadResp, every AckEvery responses of a read, on its last, and
// AckDelay after a response it has not reported, echoing the send time,
// the ECN mark and the INT stack, and naming how far the read is placed
// in order, in Meta.Offset, and how many bytes past that are placed out
// of order, in Meta.Credit): a model extension that closes the loop of
// window and delay based algorithms at the responder, which counts each
// read's responses in flight from what it sent to what the feedback says
// is placed (nic_read_flight.go); DCQCN needs only the CNPs the requester's
// notification point sends. A request issued again is to that congestion
// control what a NAK is to a writer's (LossNACK), and responses given up
// at the responder's timer what a timeout is (LossTimeout). Feedback
// that a read is wholly placed also stops any job still serving it (a
// request issued again that came after the responses it asked for), and
// the requester answers a response of a read it no longer waits for with
// such feedback.
// Under EQDS, read responses are data like a writer's: the responder
// sends them against the requester's pulls, and the requester's pacer
// paces them with everything else coming to it (nic_read_eqds.go).

// readOut is a read the requester waits for responses of.
type readOut struct {
	m    *message
	next PSN    // next response expected
	end  PSN    // one past the last response
	got  uint64 // bytes placed in order
	// with Config.OOOReads, the responses held past next (nil: in order)
	held *RecvWindow
	// the last response placed: its payload, for the completion's write
	lastPayload uint32
	// responses placed since the feedback last reported on the read
	since   int
	reissue bool // a request for the rest is queued
	gapAt   PSN  // next when a gap last re-issued the read
	gapSet  bool
	// of the ReorderTolerance responses just past gapAt, how many came
	// again since the read was issued again for it (OOOReads)
	dupsPast int
	// with OOOReads, the longest a response of the read took from its
	// send to its arrival, and the gap at next waiting for the time its
	// response is due (gapDue, 0: none; nic_read_gap.go)
	maxOWD    rtlmodel.Time
	gapDue    rtlmodel.Time
	gapDuePSN PSN
	// under EQDS, the credit the read's responses have asked for that the
	// requester took, as its responses carry it (the low 32 bits;
	// nic_read_eqds.go)
	askSeen uint32
	// with OOOReads, the responses a switch trimmed that wait to be asked
	// for (asks), those asked for and not yet placed (asked), and when a
	// request for the rest of the read last left (restSent), which covers
	// every trimmed response sent before it (nic_read_range.go)
	asks, asked []psnRange
	restSent    rtlmodel.Time
	// with OOOReads, the last PSN of the responses the requester dropped
	// for coming beyond its window (nic_read_range.go)
	beyond    PSN
	beyondSet bool
}

// pending reports whether a request for r waits to be sent: for the
// rest of the read, or for responses a switch trimmed.
func (r *readOut) pending() bool { return r.reissue || len(r.asks) > 0 }

// readJob is a read request the responder serves.
type readJob struct {
	msg    uint32
	psn    PSN    // PSN of the next response
	start  uint64 // offset the request asked from (its FIRST response)
	offset uint64 // offset of the next response
	end    uint64 // offset the request asked up to (its LAST response ends there)
	length uint64 // message length
	// the request asked for part of the read only, responses trimmed or
	// dropped beyond the requester's window (nic_read_range.go): the job
	// serves them beside the one serving the rest of the read
	part    bool
	started bool // its payload reads were issued (startJobReads)
	// under EQDS, the bytes of this job no earlier request asked credit
	// for, which its first response asks for (nic_read_eqds.go)
	ask     uint64
	asked   bool // the first response left with the ask
	posted  rtlmodel.Time
	ready   [readAhead]rtlmodel.Time // payload reads from host memory, ring
	readAt  int
	readEnd uint64 // offset up to which reads were issued
}

// sendReadRequest sends q's read request for the rest of r, from its
// next response (first or re-issued).
func (n *NIC) sendReadRequest(q *qpState, r *readOut, now rtlmodel.Time) {
	n.sendReadRequestFor(q, r, r.next, r.got, r.m.wr.Bytes, flagReadReq, now)
}

// sendReadRequestFor sends q's read request for bytes [off, end) of r,
// whose first response is psn: the RETH (or UET's SES) names off and
// end − off bytes, and the responses take the PSNs from psn on. Its flags
// are flagReadReq, with flagTrimNAK for trimmed responses only.
func (n *NIC) sendReadRequestFor(q *qpState, r *readOut, psn PSN, off, end uint64, flags uint16, now rtlmodel.Time) {
	m := r.m
	d := n.ids.Number(n.pool.Get())
	h := hdr{dst: q.peer, destQP: q.peerQP, op: packet.RCReadRequest, psn: uint32(psn), offset: off,
		length: end - off, entropy: q.paths.Next(now), ackReq: true, msgID: uint16(m.id), som: true, eom: true}
	n.writeHeaders(d, &h)
	d.Src, d.Dst, d.Born = n.cfg.ID, q.peer, uint64(now)
	d.Meta = packet.DescMeta{QP: q.id, DestQP: q.peerQP, PSN: uint32(psn), Offset: off, Length: m.wr.Bytes,
		Msg: m.id, Entropy: h.entropy, Flags: flags, Sent: uint64(now), Posted: uint64(m.wr.Posted)}
	n.sealICRC(d)
	if q.eq == nil {
		q.cc.OnSend(now, d.FrameBytes)
	}
	n.st.readReqs.Inc()
	n.out.Send(d)
	if q.readRTO == 0 {
		q.readRTO = now + n.cfg.RTO
	}
}

// startRead sends the request of the read message m being segmented.
func (n *NIC) startRead(q *qpState, m *message, now rtlmodel.Time) {
	m.firstPSN = q.nextPSN
	q.nextPSN = (q.nextPSN + m.packets) & uint32(PSNMask)
	m.sentTo = m.wr.Bytes
	q.seg++
	q.ctxValid = false
	q.reads = append(q.reads, readOut{m: m, next: PSN(m.firstPSN), end: PSN(m.firstPSN).Add(m.packets)})
	n.sendReadRequest(q, &q.reads[len(q.reads)-1], now)
}

// reissueRead sends the first request queued: of the first read with
// one, the request for the rest if it is queued, which covers every
// trimmed response it holds, else the first of its trimmed responses'
// (sendReadRange).
func (n *NIC) reissueRead(q *qpState, now rtlmodel.Time) {
	for i := range q.reads {
		r := &q.reads[i]
		if !r.pending() {
			continue
		}
		if r.reissue {
			r.reissue = false
			r.asks, r.asked = r.asks[:0], r.asked[:0]
			r.restSent = now
			n.st.readReissues.Inc()
			n.sendReadRequest(q, r, now)
		} else {
			n.sendReadRange(q, r, now)
		}
		if !r.pending() {
			q.readsPending--
		}
		return
	}
}

// markReissue queues read r to be issued again from its first missing PSN.
func (q *qpState) markReissue(r *readOut) {
	if !r.pending() {
		q.readsPending++
	}
	r.reissue = true
}

// readTimeout re-issues every read still waiting for responses.
func (n *NIC) readTimeout(q *qpState, now rtlmodel.Time) {
	n.st.timeouts.Inc()
	if !n.retryOrFail(q, now) {
		return
	}
	for i := range q.reads {
		q.markReissue(&q.reads[i])
	}
	q.readRTO = now + n.cfg.RTO
	if len(q.reads) == 0 {
		q.readRTO = 0
	}
}

// rxReadResp is the requester's handling of one read response.
func (n *NIC) rxReadResp(d *packet.Desc, now rtlmodel.Time) {
	n.st.rxData.Inc()
	q := n.qps[d.Meta.DestQP]
	var r *readOut
	ri := 0
	if q != nil {
		for ; ri < len(q.reads); ri++ {
			if q.reads[ri].m.id == d.Meta.Msg {
				r = &q.reads[ri]
				break
			}
		}
	}
	if r == nil {
		n.st.rxDup.Inc()
		if q != nil && q.cc != nil {
			n.sendReadDone(q, d, now)
		}
		return
	}
	psn := PSN(d.Meta.PSN)
	if n.pacer != nil {
		n.eqdsTakeAsk(q, r, d, now)
	}
	if !n.placeReadResp(q, r, psn, d, now) {
		return
	}
	if n.pacer != nil && d.Meta.Flags&flagSpec != 0 {
		n.pacer.Charge(now, uint64(d.Meta.Payload)) // unsolicited
	}
	n.st.rxPlaced.Inc()
	if d.Marked {
		n.st.rxCE.Inc()
		q.ce = true
		if n.np.OnCE(q.id, now) {
			n.sendCtrl(q, now, flagCNP, 0, 0)
		}
	}
	if d.HasINT {
		q.lastINT, q.intv = true, d.Tail().INT
	}
	q.lastSent = d.Meta.Sent
	r.since++
	q.readRTO = now + n.cfg.RTO
	q.progressed()
	done := r.next == r.end
	if r.since >= n.cfg.AckEvery || done {
		n.sendReadAck(q, now, r)
	}
	n.armReadAck(q, now)
	if !done {
		return
	}
	r.m.readDone, r.m.lastPayload = true, r.lastPayload
	if r.pending() {
		q.readsPending--
	}
	q.reads = append(q.reads[:ri], q.reads[ri+1:]...)
	if len(q.reads) == 0 {
		q.readRTO = 0
	}
	n.completeAcked(q, now, q.cumAck)
	n.reconsider(q, now)
}

// sendReadAck returns feedback on the responses placed since the last.
func (n *NIC) sendReadAck(q *qpState, now rtlmodel.Time, r *readOut) {
	flags := uint16(flagAck | flagReadResp)
	if q.ce {
		flags |= flagECE
	}
	d := n.sendCtrl(q, now, flags, uint32(r.next), 0)
	d.Meta.Msg, d.Meta.Sent = r.m.id, q.lastSent
	d.Meta.Offset, d.Meta.Length = r.got, r.m.wr.Bytes // placed so far, for the responder's flight (rspPlaced)
	if r.held != nil {
		d.Meta.Credit = uint32(min(uint64(r.held.Held())*uint64(n.cfg.MTU), math.MaxUint32)) // and placed past it
	}
	if q.lastINT {
		echoINT(d, &q.intv)
	}
	r.since, q.ce, q.lastINT = 0, false, false
}

// sendReadDone answers a response d of a read the requester no longer
// waits for (it completed, or its QP failed) with feedback that the whole
// message is placed: the responder stops serving the read, which a
// request issued again before the read completed may have queued, and its
// congestion control hears of the response, which it would otherwise
// count in flight until its timeout.
func (n *NIC) sendReadDone(q *qpState, d *packet.Desc, now rtlmodel.Time) {
	msg, length, sent := d.Meta.Msg, d.Meta.Length, d.Meta.Sent
	a := n.sendCtrl(q, now, flagAck|flagReadResp, uint32(PSN(d.Meta.PSN).Add(1)), 0) // its headers name d's PSN
	a.Meta.Msg, a.Meta.Sent = msg, sent
	a.Meta.Offset, a.Meta.Length = length, length
}

// armReadAck starts the feedback's delay timer when a read has responses
// placed that no feedback has reported: fewer than AckEvery, so the
// feedback goes after AckDelay at the latest, as a data ACK does, and a
// responder whose window holds fewer responses is not left waiting.
func (n *NIC) armReadAck(q *qpState, now rtlmodel.Time) {
	if q.readAckAt != 0 {
		return
	}
	for i := range q.reads {
		if q.reads[i].since > 0 {
			q.readAckAt = now + n.cfg.AckDelay
			n.schedule(q, q.readAckAt)
			return
		}
	}
}

// readAckDue sends, when the delay has run out, the feedback of every
// read with responses placed since its last.
func (n *NIC) readAckDue(q *qpState, now rtlmodel.Time) {
	q.readAckAt = 0
	for i := range q.reads {
		if r := &q.reads[i]; r.since > 0 {
			n.sendReadAck(q, now, r)
		}
	}
}

// rxReadAck is the responder's handling of read-response feedback.
func (n *NIC) rxReadAck(d *packet.Desc, now rtlmodel.Time) {
	q := n.qps[d.Meta.DestQP]
	if q == nil || q.cc == nil {
		n.st.staleAcks.Inc()
		return
	}
	acked := n.rspPlaced(q, d.Meta.Msg, d.Meta.Length, d.Meta.Offset, uint64(d.Meta.Credit), now)
	if d.Meta.Offset >= d.Meta.Length {
		n.dropDoneJob(q, d.Meta.Msg, now)
	}
	ev := &n.ackEv
	*ev = AckEvent{AckedBytes: acked, ECE: d.Meta.Flags&flagECE != 0, Entropy: d.Meta.Entropy}
	if d.Meta.Sent != 0 {
		ev.RTT = now - rtlmodel.Time(d.Meta.Sent)
	}
	if d.Meta.Flags&flagINT != 0 {
		ev.INT = &d.Tail().INT
		n.countINT(ev.INT)
	}
	q.cc.OnAck(now, ev)
	q.endPacingGap(now)
	n.reconsider(q, now)
}
