package nic400g

import (
	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// readAhead is how many packets of payload the DMA engine reads ahead of
// transmission: enough outstanding reads to cover the PCIe read latency
// at line rate (750 ns / 83.5 ns per 4 KB packet < 16, E).
const readAhead = 16

// Packet flags in packet.DescMeta.Flags.
const (
	flagData     = 1 << iota // a data packet
	flagAck                  // an ACK (cumulative PSN in Meta.PSN, SACK bitmap above it)
	flagNAK                  // a NAK for a sequence error at Meta.PSN
	flagTrimNAK              // a NACK for the trimmed packet Meta.PSN
	flagCNP                  // a congestion notification
	flagECE                  // the acknowledged data was CE-marked
	flagLast                 // the last packet of its message
	flagRetx                 // a retransmission
	flagSend                 // a SEND packet: no address, placed in the receive buffer in order
	flagSpec                 // EQDS: sent from the speculative window, not against credit
	flagPull                 // EQDS: a PULL granting Meta.Credit bytes
	flagReadReq              // an RDMA READ request (Meta.Offset, Meta.Length: what to return); with flagTrimNAK, for trimmed responses only
	flagReadResp             // a READ response packet (with flagData) or its feedback (with flagAck)
	flagSACK                 // the descriptor's tail holds a SACK bitmap (an ACK's, nonzero)
	flagINT                  // the descriptor's tail holds the INT stack an ACK echoes
)

// dataOpcode is the BTH opcode of a packet of a message of operation op.
func dataOpcode(op Op, first, last bool) packet.OpCode {
	base, only := packet.RCWriteFirst, packet.RCWriteOnly
	switch op {
	case OpSend:
		base, only = packet.RCSendFirst, packet.RCSendOnly
	case OpRead:
		base, only = packet.RCReadResponseFirst, packet.RCReadResponseOnly
	}
	switch {
	case first && last:
		return only
	case first:
		return base
	case last:
		return base + 2
	}
	return base + 1
}

// post accepts a work request whose doorbell reached the NIC at now.
func (n *NIC) post(wr WorkRequest, now rtlmodel.Time) {
	if int(wr.QP) >= len(n.qps) {
		n.st.badQP.Inc()
		return
	}
	q := n.qp(wr.QP)
	if q.failed {
		n.st.posted.Inc()
		n.failMessage(q, wr, q.nextMsgID, now, StatusFlushed)
		q.nextMsgID++
		return
	}
	q.peer, q.peerQP = wr.Dst, wr.DestQP
	if q.cc == nil {
		q.setCC(n.newCC())
	}
	if q.paths == nil {
		q.paths = n.newPaths(wr.QP)
	}
	m := &message{wr: wr, id: q.nextMsgID, ready: now}
	q.nextMsgID++
	m.packets = uint32(max(1, (wr.Bytes+uint64(n.cfg.MTU)-1)/uint64(n.cfg.MTU)))
	if !wr.Inline {
		m.ready = n.host.FetchWQE(now)
	}
	q.msgs = append(q.msgs, m)
	n.st.posted.Inc()
	if n.cfg.Prefetch && !q.ctxValid && !n.cache.Contains(wr.QP) && n.readSlots(now) > 0 {
		if n.cache.Prefetch(wr.QP, now) {
			n.reads.push(now + n.cfg.QPCache.MissLatency)
		}
	}
	n.reconsider(q, now)
}

// segMsg returns the message being segmented, or nil.
func (q *qpState) segMsg() *message {
	if q.seg < len(q.msgs) {
		return q.msgs[q.seg]
	}
	return nil
}

// sendable says whether q may send a packet now, or the earliest time it
// might (rtlmodel.Forever: only an event will change that).
func (n *NIC) sendable(q *qpState, now rtlmodel.Time) (rtlmodel.Time, bool) {
	kind := q.nextTx()
	if kind == txNone {
		return rtlmodel.Forever, false
	}
	if q.ctxReady > now {
		return q.ctxReady, false
	}
	if q.nextSend > now {
		return q.nextSend, false
	}
	switch kind {
	case txRetx:
		if w := q.cc.Window(); q.eq == nil && w != 0 && q.inflight+uint64(n.cfg.MTU) > w && q.inflight > 0 {
			return rtlmodel.Forever, false // until an ACK opens the window (markPending)
		}
	case txReissue:
		return now, true
	case txResp:
		if w := q.cc.Window(); q.eq == nil && w != 0 && q.inflight+uint64(n.cfg.MTU) > w && q.inflight > 0 {
			return rtlmodel.Forever, false
		}
		if !n.jobInWindow(q, now) {
			return rtlmodel.Forever, false // until read feedback moves the window (rxReadAck reconsiders)
		}
		if t := q.jobReady(); t > now {
			return t, false
		}
		if q.eq != nil && !n.eqdsMayRespond(q) {
			return rtlmodel.Forever, false // until a pull brings credit
		}
		return now, true
	case txNew:
		m := q.segMsg()
		if m.ready > now {
			return m.ready, false
		}
		if m.wr.Bytes > MaxMessageBytes {
			return now, true // to fail the QP (sendOne)
		}
		if m.wr.Op == OpRead {
			return now, true // a request: no payload, no credit
		}
		if q.psnWindowFull(n.cfg.RecvWindow) {
			return rtlmodel.Forever, false // until the oldest packet's ACK (rxAck reconsiders)
		}
		if w := q.cc.Window(); q.eq == nil && w != 0 && q.inflight+uint64(n.cfg.MTU) > w && q.inflight > 0 {
			return rtlmodel.Forever, false
		}
		if t := q.nextDataReady(); t > now {
			return t, false
		}
	}
	if q.eq != nil && !n.eqdsMaySend(q) {
		return rtlmodel.Forever, false // until a pull brings credit
	}
	return now, true
}

// Transmit choices of a QP, in priority order.
const (
	txNone    = iota
	txRetx    // a retransmission
	txReissue // a read request issued again
	txResp    // a READ response (responder)
	txNew     // the next packet of the message being segmented
)

// nextTx is what q would send next.
func (q *qpState) nextTx() int {
	switch {
	case q.retxQ > 0:
		return txRetx
	case q.readsPending > 0:
		return txReissue
	case len(q.rsps) > 0:
		return txResp
	case q.segMsg() != nil:
		return txNew
	}
	return txNone
}

// nextDataReady is when the next new packet's payload is in the NIC.
func (q *qpState) nextDataReady() rtlmodel.Time {
	if len(q.dataReady) == 0 {
		return 0
	}
	return q.dataReady[q.dataHead]
}

// transmit sends at most one frame: control frames first, then the QP at
// the head of the ring if it may still send.
func (n *NIC) transmit(now rtlmodel.Time) {
	if n.ctrl.Len() > 0 {
		d := *n.ctrl.Front()
		if !n.out.Fits(d) {
			return
		}
		n.ctrl.Pop()
		n.ctrlSent++
		n.st.ctrlWaiting.Set(int64(n.ctrl.Len()))
		n.out.Send(d)
		return
	}
	if n.pauseUntil > now || !n.out.CanSendBytes(maxFrameBytes) {
		return
	}
	for tries := 0; tries < 4 && n.ring.Len() > 0; tries++ {
		q := n.qps[n.ring.Pop()]
		q.inRing = false
		if !q.ctxValid && !n.needContext(q, now) {
			continue
		}
		if _, ok := n.sendable(q, now); !ok {
			n.reconsider(q, now)
			continue
		}
		n.sendOne(q, now)
		n.reconsider(q, now)
		break
	}
}

// needContext looks the QP's context up in the cache when its turn comes;
// it reports whether the context is there now. A miss starts a read of
// the context from host memory if a read slot is free (Config.
// ContextFetches), else the QP waits for one.
func (n *NIC) needContext(q *qpState, now rtlmodel.Time) bool {
	if q.ctxReady != 0 {
		if q.ctxReady > now {
			return false
		}
		q.ctxReady, q.ctxValid = 0, true
		return true
	}
	if q.ctxWaiting {
		return false
	}
	filling := n.cache.Contains(q.id) // on chip, or a prefetch is filling it
	if !filling && n.readSlots(now) <= 0 {
		q.ctxWaiting = true
		n.ctxWait = append(n.ctxWait, q.id)
		return false
	}
	hit, ready := n.cache.Lookup(q.id, now)
	if hit || ready <= now {
		q.ctxValid = true
		return true
	}
	if !filling {
		n.reads.push(ready)
	}
	q.ctxReady = ready
	n.schedule(q, ready)
	return false
}

// readSlots returns how many more context reads may start now.
func (n *NIC) readSlots(now rtlmodel.Time) int {
	for n.reads.len() > 0 && n.reads.min() <= now {
		n.reads.pop()
	}
	return n.cfg.ContextFetches - n.reads.len()
}

// releaseWaiters starts the context reads of waiting QPs as slots free.
func (n *NIC) releaseWaiters(now rtlmodel.Time) {
	for n.waitAt < len(n.ctxWait) && n.readSlots(now) > 0 {
		w := n.qps[n.ctxWait[n.waitAt]]
		n.waitAt++
		w.ctxWaiting = false
		if n.needContext(w, now) {
			n.reconsider(w, now)
		}
	}
	if n.waitAt == len(n.ctxWait) {
		n.ctxWait, n.waitAt = n.ctxWait[:0], 0
	} else if n.waitAt > 1024 && 2*n.waitAt > len(n.ctxWait) {
		n.ctxWait, n.waitAt = n.ctxWait[:copy(n.ctxWait, n.ctxWait[n.waitAt:])], 0
	}
}

// sendOne sends q's next packet: a pending retransmission, else the next
// segment of its current message. A message too long to send
// (MaxMessageBytes) fails q instead, when segmenting comes to it.
func (n *NIC) sendOne(q *qpState, now rtlmodel.Time) {
	switch q.nextTx() {
	case txReissue:
		n.reissueRead(q, now)
		return
	case txResp:
		n.sendResponse(q, now)
		return
	case txNew:
		if m := q.segMsg(); m.wr.Bytes > MaxMessageBytes {
			n.st.lengthErrors.Inc()
			n.failQP(q, now, q.seg, StatusLocalLength)
			return
		} else if m.wr.Op == OpRead {
			n.startRead(q, m, now)
			return
		}
	}
	if q.retxQ > 0 {
		for i := range q.unacked {
			p := &q.unacked[i]
			if p.pending {
				trimmed := p.trimmed
				p.pending, p.trimmed = false, false
				q.retxQ--
				if p.lost && !p.sacked {
					q.inflight += uint64(p.payload) // back in the network (markLost)
				}
				p.lost = false
				p.retx++
				p.sentAt = now
				n.st.retransmits.Inc()
				if q.rtoAt == 0 {
					q.rtoAt = now + n.cfg.RTO // stopped while only pulls were awaited (eqdsRetime)
				}
				n.emit(q, p, q.msgAt(p.msg), now, true, trimmed)
				return
			}
		}
	}
	m := q.segMsg()
	payload := uint32(min(uint64(n.cfg.MTU), m.wr.Bytes-m.sentTo))
	if m.sentTo == 0 {
		m.firstPSN = q.nextPSN
		q.startReads(n, m, now)
	}
	p := sentPkt{psn: q.nextPSN, msg: m.id, offset: m.sentTo, payload: payload, sentAt: now}
	q.nextPSN = (q.nextPSN + 1) & uint32(PSNMask)
	m.sentTo += uint64(payload)
	q.popRead(n, m, now)
	if m.sentTo >= m.wr.Bytes {
		// the next work request looks the context up again: it may have
		// been evicted meanwhile
		q.seg++
		q.ctxValid = false
	}
	q.pushUnacked(p)
	q.inflight += uint64(payload)
	if q.rtoAt == 0 {
		q.rtoAt = now + n.cfg.RTO
	}
	n.emit(q, &q.unacked[len(q.unacked)-1], m, now, false, false)
}

// msgAt finds a message by id among those not yet acknowledged.
func (q *qpState) msgAt(id uint32) *message {
	for _, m := range q.msgs {
		if m.id == id {
			return m
		}
	}
	return nil
}

// startReads issues the first payload reads of a message.
func (q *qpState) startReads(n *NIC, m *message, now rtlmodel.Time) {
	q.dataReady, q.dataHead = q.dataReady[:0], 0
	if m.wr.Inline {
		return
	}
	for k := 0; k < readAhead && uint64(k) < uint64(m.packets); k++ {
		q.dataReady = append(q.dataReady, n.host.ReadData(now, uint32(n.cfg.MTU)))
	}
}

// popRead consumes the read of the packet just sent and issues the read
// readAhead packets further on.
func (q *qpState) popRead(n *NIC, m *message, now rtlmodel.Time) {
	if len(q.dataReady) == 0 {
		return
	}
	ahead := m.sentTo/uint64(n.cfg.MTU) + readAhead - 1
	if ahead < uint64(m.packets) {
		q.dataReady[q.dataHead] = n.host.ReadData(now, uint32(n.cfg.MTU))
		q.dataHead = (q.dataHead + 1) % len(q.dataReady)
		return
	}
	q.dataReady[q.dataHead] = 0
	q.dataHead = (q.dataHead + 1) % len(q.dataReady)
}

// emit builds and sends one data packet; retx marks a retransmission and
// trimmed one of a packet a switch trimmed (EQDS: sent against credit).
func (n *NIC) emit(q *qpState, p *sentPkt, m *message, now rtlmodel.Time, retx, trimmed bool) {
	d := n.ids.Number(n.pool.Get())
	first, last := p.offset == 0, p.offset+uint64(p.payload) >= m.wr.Bytes
	op := dataOpcode(m.wr.Op, first, last)
	entropy := q.paths.Next(now)
	p.entropy = entropy
	h := hdr{dst: q.peer, destQP: q.peerQP, op: op, psn: p.psn, payload: p.payload, offset: p.offset,
		length: m.wr.Bytes, entropy: entropy, ackReq: last, msgID: uint16(m.id), som: first, eom: last, retx: retx}
	n.writeHeaders(d, &h)
	n.reserveINT(d)
	d.Src, d.Dst, d.Born = n.cfg.ID, q.peer, uint64(now)
	d.Meta = packet.DescMeta{QP: q.id, DestQP: q.peerQP, PSN: p.psn, Offset: p.offset, Length: m.wr.Bytes,
		Payload: p.payload, Msg: m.id, Entropy: entropy, Flags: flagData, Sent: uint64(now)}
	if last {
		d.Meta.Flags |= flagLast
	}
	if retx {
		d.Meta.Flags |= flagRetx
	}
	if m.wr.Op == OpSend {
		d.Meta.Flags |= flagSend
	}
	d.Meta.Posted = uint64(m.wr.Posted)
	n.sealICRC(d)
	if q.eq != nil {
		if q.eq.Speculating() {
			d.Meta.Flags |= flagSpec
		}
		q.eqdsAsk(p, m, retx)
		d.Meta.Credit = p.ask
		if retx && !trimmed {
			q.eq.OnSendUnpaid(now, p.payload)
		} else {
			q.eq.OnSend(now, p.payload) // credit is in payload bytes
		}
	} else {
		q.cc.OnSend(now, d.FrameBytes)
		if q.paySeq != nil && !retx {
			q.paySeq.onSendPayload(p.payload)
		}
	}
	if r := q.cc.Rate(); r != 0 {
		q.nextSend = max(q.nextSend, now) + rtlmodel.Time(uint64(d.FrameBytes)*8_000_000_000/uint64(r))
	}
	n.st.txData.Inc()
	n.st.txBytes.Add(uint64(p.payload))
	n.out.Send(d)
}

// timeout handles a retransmission timeout: go-back-N resends from the
// oldest unacknowledged packet, selective repeat the oldest packets
// neither acknowledged nor selectively acknowledged, up to the reordering
// tolerance.
func (n *NIC) timeout(q *qpState, now rtlmodel.Time) {
	n.st.timeouts.Inc()
	if !n.retryOrFail(q, now) {
		return
	}
	q.cc.OnLoss(now, LossTimeout)
	if len(q.unacked) > 0 {
		q.paths.OnFeedback(now, q.unacked[0].entropy, PathTimeout)
	}
	if n.cfg.Recovery == GoBackN {
		n.rewind(q, 0)
	} else {
		// After a timeout, far longer than any round trip, every packet
		// sent before it and neither acknowledged nor selectively
		// acknowledged is taken as lost. The oldest, up to the reordering
		// tolerance, go at once; each later ACK that moves the QP on
		// releases twice as many more as it acknowledged (resendLost),
		// until none is left. Resending only the oldest would cost one
		// timeout per hole, resending all of them at once would flood a
		// receiver that lost them for want of room, and resending a batch
		// per timeout would cost one timeout per batch.
		q.rtoRecover = now
		for i := range q.unacked {
			if p := &q.unacked[i]; p.sentAt < now {
				q.markLost(p) // out of the window's count until resent
			}
		}
		n.resendLost(q, n.cfg.ReorderTolerance)
		if p := &q.unacked[0]; p.sacked && !p.pending {
			// the packet at the left edge goes again even though it was
			// selectively acknowledged (RFC 2018 §8): what the receiver
			// holds beyond a hole the sender cannot see, such as an
			// RDMA READ request's PSNs, may never be acknowledged
			// otherwise, and the duplicate draws the receiver's ACK
			q.markPending(p)
		}
	}
	q.rtoAt = now + n.cfg.RTO
	q.stopTimerIfNothingInFlight()
}

// resendLost marks for resending up to limit of the oldest packets sent
// before the QP's last timeout and neither acknowledged, selectively
// acknowledged nor already marked, and ends the recovery when no such
// packet is left.
func (n *NIC) resendLost(q *qpState, limit int) {
	k, left := 0, false
	for i := range q.unacked {
		p := &q.unacked[i]
		if p.sacked || p.pending || p.sentAt >= q.rtoRecover {
			continue
		}
		if k == limit {
			left = true
			break
		}
		q.markPending(p)
		k++
	}
	if !left {
		q.rtoRecover = 0
	}
}

// rewind marks every unacknowledged packet from index i on for resending
// (go-back-N); under EQDS, where only a timeout rewinds (trim and
// out-of-order NACKs queue their packet alone, eqdsResendHole answers a
// sequence NAK), the bytes of those still in flight leave it, as they
// are resent without credit.
func (n *NIC) rewind(q *qpState, i int) {
	var bytes uint64
	for ; i < len(q.unacked); i++ {
		if p := &q.unacked[i]; !p.pending {
			q.markPending(p)
			if !p.sacked && !p.trimmed { // a trim's NACK took its bytes out already
				bytes += uint64(p.payload)
			}
		}
	}
	if q.eq != nil {
		q.eq.OnRewind(n.h.Now(), bytes)
	}
}

// resendUnsacked queues for retransmission every packet past the
// acknowledged point that no SACK has reported and none is queued for:
// the selective-repeat sender's answer to a NAK, which the receiver sends
// when it drops a packet beyond its reorder buffer (nakHole). Those it
// dropped, and the hole in front of them, are what it lacks, and no SACK
// will ever report three packets past a hole as wide as the buffer.
func (n *NIC) resendUnsacked(q *qpState) {
	for i := range q.unacked {
		if p := &q.unacked[i]; !p.pending && !p.sacked {
			q.markPending(p)
		}
	}
}

// maybeRelease returns an idle QP's active state to the slab.
func (n *NIC) maybeRelease(q *qpState) {
	if q.failed || q.inRing || len(q.msgs) > 0 || len(q.unacked) > 0 || q.sinceAck > 0 || q.timerAt != 0 ||
		q.ctxReady > n.h.Now() || len(q.recvMsgs) > 0 {
		return
	}
	if q.rw != nil && q.rw.Held() > 0 {
		return
	}
	if n.pacer != nil && n.pacer.Pending(q.id) > 0 || len(q.reads) > 0 || len(q.rsps) > 0 || q.rspRTO != 0 || q.readAckAt != 0 ||
		len(q.early) > 0 {
		return
	}
	ctx := n.store.Context(q.id)
	ctx.SendPSN = PSN(q.nextPSN)
	if q.rw != nil {
		ctx.RecvPSN = q.rw.Expected()
	}
	n.qps[q.id] = nil
	n.free = append(n.free, q)
}
