package nic400g

import (
	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// rxReadReq is the responder's handling of an RDMA READ request
// (takeReadReq).
func (n *NIC) rxReadReq(d *packet.Desc, now rtlmodel.Time) {
	n.st.rxReadReqs.Inc()
	if d.Trimmed {
		n.nakTrimmedReadReq(d, now)
		return
	}
	q := n.responder(d)
	if q.cc == nil {
		q.setCC(n.newCC())
	}
	if q.paths == nil {
		q.paths = n.newPaths(q.id)
	}
	if d.Meta.Length <= d.Meta.Offset {
		n.st.rxDup.Inc()
		return
	}
	n.takeReadReq(q, earlyRead{psn: PSN(d.Meta.PSN), msg: d.Meta.Msg, offset: d.Meta.Offset,
		end: n.askedEnd(d), length: d.Meta.Length, posted: rtlmodel.Time(d.Meta.Posted),
		part: d.Meta.Flags&flagTrimNAK != 0}, now)
}

// takeReadReq is the responder's handling of read request r: in PSN
// order it reserves the responses' PSNs and queues the read, then takes
// any request held that is in order now; a duplicate is served again
// from its PSN, for the rest of the read in place of the job serving it,
// or, asking for part of the read only, beside that job
// (takeReadRange); one ahead of the expected PSN is held for its turn under
// selective repeat (holdEarlyRead), and dropped under go-back-N with a
// NAK of the hole in front of it, on which the requester issues it again.
func (n *NIC) takeReadReq(q *qpState, r earlyRead, now rtlmodel.Time) {
	exp := q.rw.Expected()
	var ask uint64 // what no earlier request asked credit for (EQDS)
	switch c := PSNCompare(r.psn, exp); {
	case c > 0:
		if !n.holdEarlyRead(q, r) {
			n.st.rxOOODrop.Inc()
			if n.pacer == nil {
				n.nakHole(q, exp, now) // the requester issues the read again (reissueNAKed)
			}
		}
		return
	case c == 0:
		ask = r.length - r.offset
		mtu := uint64(n.cfg.MTU)
		pkts := uint32((r.length - r.offset + mtu - 1) / mtu)
		held := q.rw.Held()
		q.rw.Skip(pkts)
		q.msn++ // a read counts once accepted (IBTA C9-148; Linux rxe)
		q.nakSent = false
		n.completeInOrder(q, now, 0)
		if held > 0 {
			// data that overtook the request waited behind its PSNs and
			// is in order now: acknowledge it, as the arrival that fills
			// a hole does (rxData), for nothing else may come to
			n.sendAck(q, now, false)
		}
	case r.part:
		ask = n.takeReadRange(q, r, now)
	default:
		n.st.rxDup.Inc()
		ask = n.dropStaleJob(q, r.msg, r.offset, r.length, now)
	}
	q.rsps = append(q.rsps, readJob{msg: r.msg, psn: r.psn, start: r.offset, offset: r.offset, end: r.end,
		readEnd: r.offset, length: r.length, posted: r.posted, ask: ask, part: r.part})
	if len(q.rsps) == 1 {
		n.startJobReads(&q.rsps[0], now)
	}
	n.takeEarlyReads(q, now)
	n.reconsider(q, now)
}

// responder returns the QP a request or data packet d is for, with its
// receive window.
func (n *NIC) responder(d *packet.Desc) *qpState {
	q := n.qp(d.Meta.DestQP)
	q.peer, q.peerQP = d.Src, d.Meta.QP
	if q.rw == nil {
		rw, err := NewRecvWindow(n.cfg.RecvWindow, n.store.Context(q.id).RecvPSN)
		if err != nil {
			panic("nic400g: receive window: " + err.Error())
		}
		q.rw = rw
	}
	return q
}

// dropStaleJob handles a re-issued read of message msg (of length bytes)
// from offset: the requester dropped every response from there on, so
// the jobs still serving the message stop, and the bytes sent past
// offset leave the in-flight count (rspReissued). The request is to the
// responder's congestion control what a NAK is to a writer's: a response
// was lost or trimmed on the way (LossNACK).
//
// It returns the bytes a job serving the request from offset will send
// that no earlier request asked credit for under EQDS: those the stopped
// job for the rest had sent past offset, with that job's own request if
// its first response had not left, or, with no such job left, everything
// from offset; less what stopped jobs for parts of the read asked for
// and did not send.
func (n *NIC) dropStaleJob(q *qpState, msg uint32, offset, length uint64, now rtlmodel.Time) uint64 {
	left := n.rspReissued(q, msg, length, offset, now)
	dj := n.dropJobs(q, msg, now)
	n.st.rxReissues.Inc()
	if q.eq == nil {
		q.cc.OnLoss(now, LossNACK)
	} else {
		q.eq.OnRewind(now, left) // the requester dropped them, or never had them
	}
	ask := length - min(length, offset)
	if j := dj.rest; dj.hasRest {
		ask = j.offset - min(j.offset, offset)
		if !j.asked {
			ask += j.ask // its first response never left: nobody asked for it
		}
	}
	return ask - min(ask, dj.rangesUnsent)
}

// dropDoneJob stops serving read message msg, which the requester's
// feedback says is wholly placed: a job for it, queued by a request
// issued again before the read completed, would send only what the
// requester has, ahead of the QP's later reads.
func (n *NIC) dropDoneJob(q *qpState, msg uint32, now rtlmodel.Time) {
	if n.dropJobs(q, msg, now).any {
		n.st.staleJobs.Inc()
	}
}

// droppedJobs is what dropJobs stopped.
type droppedJobs struct {
	rest         readJob // the job for the rest of the read
	hasRest, any bool    // whether that job was queued; whether any job was
	// the bytes the stopped jobs for parts of the read asked credit for
	// on their first responses (EQDS) and did not send
	rangesUnsent uint64
}

// dropJobs stops every job serving read message msg: the one serving the
// rest of the read, if one is queued (a request reserves a message's PSNs
// once, so there is at most one), and those serving parts of it again
// (takeReadRange); and it starts the payload reads of the job that comes
// to the head.
func (n *NIC) dropJobs(q *qpState, msg uint32, now rtlmodel.Time) droppedJobs {
	var dj droppedJobs
	head := false
	k := 0
	for i, j := range q.rsps {
		if j.msg != msg {
			q.rsps[k] = j
			k++
			continue
		}
		dj.any, head = true, head || i == 0
		switch {
		case !j.part:
			dj.rest, dj.hasRest = j, true
		case j.asked:
			dj.rangesUnsent += j.end - j.offset
		}
	}
	q.rsps = q.rsps[:k]
	if head && len(q.rsps) > 0 {
		n.startJobReads(&q.rsps[0], now)
	}
	return dj
}

// startJobReads issues the first payload reads of a read job come to the
// head of its QP's queue, unless it issued them before a job for part of
// a read went ahead of it (jobInWindow).
func (n *NIC) startJobReads(j *readJob, now rtlmodel.Time) {
	if j.started {
		return
	}
	j.started = true
	mtu := uint64(n.cfg.MTU)
	for k := 0; k < readAhead && j.readEnd < j.end; k++ {
		b := min(mtu, j.end-j.readEnd)
		j.ready[k] = n.host.ReadData(now, uint32(b))
		j.readEnd += b
	}
	j.readAt = 0
}

// jobReady is when the head job's next response payload is in the NIC.
func (q *qpState) jobReady() rtlmodel.Time {
	if len(q.rsps) == 0 {
		return rtlmodel.Forever
	}
	return q.rsps[0].ready[q.rsps[0].readAt]
}

// sendResponse sends the next response of the head read job.
func (n *NIC) sendResponse(q *qpState, now rtlmodel.Time) {
	j := &q.rsps[0]
	mtu := uint64(n.cfg.MTU)
	payload := uint32(min(mtu, j.end-j.offset))
	first, last := j.offset == j.start, j.offset+uint64(payload) >= j.end
	op := dataOpcode(OpRead, first, last)
	d := n.ids.Number(n.pool.Get())
	h := hdr{dst: q.peer, destQP: q.peerQP, op: op, psn: uint32(j.psn), payload: payload, offset: j.offset,
		length: j.length, entropy: q.paths.Next(now), class: 0, msgID: uint16(j.msg),
		som: j.offset == 0, eom: j.offset+uint64(payload) >= j.length} // UET's SES flags: the message's ends
	if op.HasAETH() {
		h.aeth = &packet.AETH{Syndrome: packet.AckSyndrome(0x1F), MSN: q.ackMSN()}
	}
	n.writeHeaders(d, &h)
	n.reserveINT(d)
	d.Src, d.Dst, d.Born = n.cfg.ID, q.peer, uint64(now)
	d.Meta = packet.DescMeta{QP: q.id, DestQP: q.peerQP, PSN: uint32(j.psn), Offset: j.offset, Length: j.length,
		Payload: payload, Msg: j.msg, Entropy: h.entropy, Flags: flagData | flagReadResp, Sent: uint64(now),
		Posted: uint64(j.posted)}
	if j.offset+uint64(payload) >= j.length {
		d.Meta.Flags |= flagLast
	}
	if j.part {
		d.Meta.Flags |= flagRetx // sent before, and trimmed or dropped
		n.st.retransmits.Inc()
	}
	n.sealICRC(d)
	added := n.rspSent(q, j.msg, j.length, j.offset, uint64(payload), now)
	if q.eq != nil {
		n.eqdsRespond(q, j, d, payload, added, now)
	} else {
		q.cc.OnSend(now, d.FrameBytes)
		if q.paySeq != nil {
			q.paySeq.onSendPayload(payload)
		}
		if r := q.cc.Rate(); r != 0 {
			q.nextSend = max(q.nextSend, now) + rtlmodel.Time(uint64(d.FrameBytes)*8_000_000_000/uint64(r))
		}
	}
	n.st.txData.Inc()
	n.st.txBytes.Add(uint64(payload))
	n.st.readResps.Inc()
	n.out.Send(d)
	j.psn = j.psn.Next()
	j.offset += uint64(payload)
	if j.readEnd < j.end {
		b := min(mtu, j.end-j.readEnd)
		j.ready[j.readAt] = n.host.ReadData(now, uint32(b))
		j.readEnd += b
	} else {
		j.ready[j.readAt] = 0
	}
	j.readAt = (j.readAt + 1) % readAhead
	if j.offset >= j.end {
		q.rsps = append(q.rsps[:0], q.rsps[1:]...)
		if len(q.rsps) > 0 {
			n.startJobReads(&q.rsps[0], now)
		}
	}
}
