package nic400g

import (
	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/serdes"
)

// receive handles one frame leaving the receive pipeline.
func (n *NIC) receive(f serdes.RxFrame[*packet.Desc], now rtlmodel.Time) {
	d := f.Frame
	defer n.pool.Put(d)
	switch {
	case f.Timing.BadFCS():
		n.st.fcsDrops.Inc()
	case d.Trimmed && int(d.HdrLen) < n.cfg.Stack.PSNBytes():
		// cut inside the header that holds its QP and PSN: nobody can
		// tell which packet it was, so it cannot be NACKed
		n.st.trimUnreadable.Inc()
	case d.Kind == packet.KindPFC:
		n.obeyPFC(d, now)
	case !n.addressedHere(d):
		n.st.notMine.Inc()
	case !n.icrcGood(d):
		n.st.icrcDrops.Inc()
	case int(d.Meta.DestQP) >= len(n.qps):
		n.st.badQP.Inc() // no such QP: dropped, as a NIC drops a packet for an invalid QP
	case d.Meta.Flags&flagPull != 0:
		n.rxPull(d, now)
	case d.Meta.Flags&flagReadReq != 0:
		n.rxReadReq(d, now)
	case d.Meta.Flags&(flagReadResp|flagData) == flagReadResp|flagData:
		n.rxReadResp(d, now)
	case d.Meta.Flags&(flagReadResp|flagAck) == flagReadResp|flagAck:
		n.rxReadAck(d, now)
	case d.Meta.Flags&(flagReadResp|flagTrimNAK) == flagReadResp|flagTrimNAK:
		n.rxReadReqNAK(d, now)
	case d.Meta.Flags&flagData != 0:
		n.rxData(d, now)
	case d.Meta.Flags&(flagAck|flagNAK|flagTrimNAK) != 0:
		n.rxAck(d, now)
	case d.Meta.Flags&flagCNP != 0:
		n.st.cnpRecv.Inc()
		if q := n.qps[d.Meta.DestQP]; q != nil && q.cc != nil {
			q.cc.OnCNP(now)
			n.reconsider(q, now)
		}
	}
}

// addressedHere reports whether frame d is for this NIC: on Ethernet,
// whether its destination is the NIC's MAC, as a NIC's MAC filter passes
// its own unicast frames only (the NIC takes no multicast but PFC's).
// Native IB framing has no MAC; its LRH names the port.
func (n *NIC) addressedHere(d *packet.Desc) bool {
	return n.cfg.Stack == LeanNative || d.HdrLen < 6 || [6]byte(d.Hdr[0:6]) == n.mac
}

// rxData is the responder's receive path for one data packet.
func (n *NIC) rxData(d *packet.Desc, now rtlmodel.Time) {
	n.st.rxData.Inc()
	q := n.responder(d)
	psn := PSN(d.Meta.PSN)
	if d.Trimmed {
		n.st.rxTrimmed.Inc()
		if n.pacer != nil {
			n.eqdsOnData(q, d, now, false)
		} else if n.cfg.Recovery == GoBackN && n.nackWaiting(q, psn) {
			// go-back-N sends again everything from the NACKed packet:
			// a trim behind one whose NACK has not left yet is among it
			n.st.nacksCoalesced.Inc()
			return
		}
		n.sendCtrl(q, now, flagTrimNAK, uint32(psn), 0)
		return
	}
	if d.Marked {
		n.st.rxCE.Inc()
		q.ce = true
		if n.notifyCE && n.np.OnCE(q.id, now) {
			n.sendCtrl(q, now, flagCNP, 0, 0)
		}
	}
	if d.HasINT {
		q.lastINT, q.intv = true, d.Tail().INT
	}
	q.lastSent = d.Meta.Sent
	q.lastEntropy = d.Meta.Entropy
	q.lastPSN, q.lastRetx = d.Meta.PSN, d.Meta.Flags&flagRetx != 0
	if d.Marked {
		q.ceEntropy = d.Meta.Entropy
	}
	exp := q.rw.Expected()
	if psn != exp && PSNCompare(psn, exp) > 0 {
		// UET carries the offset in every packet; RoCE only in a WRITE's
		// FIRST or ONLY packet (RETH), never in a SEND
		hasAddr := n.cfg.Stack == UET || (d.Meta.Offset == 0 && d.Meta.Flags&flagSend == 0)
		switch {
		case n.cfg.Recovery == GoBackN:
			n.st.rxOOODrop.Inc()
			if n.pacer != nil {
				n.eqdsOnDropped(q, d, now)
			}
			if nak := n.nakHole(q, exp, now); nak != nil && n.pacer != nil {
				nak.Meta.Sent = d.Meta.Sent // when the packet that found the hole left
			}
			return
		case !hasAddr && PSNDiff(psn, exp) > int32(n.cfg.ReorderPackets):
			// the buffer's slots are the PSNs after exp (Config.ReorderPackets)
			n.st.reorderDrops.Inc()
			if n.pacer != nil {
				// as a packet dropped out of order under go-back-N
				n.eqdsOnDropped(q, d, now)
			}
			if nak := n.nakHole(q, exp, now); nak != nil && n.pacer != nil {
				nak.Meta.Sent = d.Meta.Sent
			}
			return
		}
	}
	res, _ := q.rw.Receive(psn)
	switch res {
	case RecvOutOfWindow:
		n.st.rxOutOfWindow.Inc()
		return
	case RecvDuplicate:
		n.st.rxDup.Inc()
		n.sendAck(q, now, true)
		return
	}
	n.st.rxPlaced.Inc()
	n.noteMessage(q, d)
	if n.pacer != nil {
		n.eqdsOnData(q, d, now, true)
	}
	if res == RecvOutOfOrder {
		n.st.rxOOO.Inc()
		n.sendAck(q, now, true)
		return
	}
	q.nakSent = false
	n.completeInOrder(q, now, d.Meta.Payload)
	q.sinceAck++
	if q.sinceAck >= n.cfg.AckEvery || d.Meta.Flags&flagLast != 0 || q.rw.Held() > 0 {
		n.sendAck(q, now, false)
	} else if q.ackAt == 0 {
		q.ackAt = now + n.cfg.AckDelay
		n.schedule(q, q.ackAt)
	}
	if len(q.early) > 0 {
		n.takeEarlyReads(q, now) // a read request held for this PSN
	}
}

// nakHole sends the NAK of a PSN sequence error at exp, the first PSN
// missing, once for each place the hole is found at (IBTA's responder
// sends one per sequence error; a UET receiver NACKs a PSN out of its
// window, PSN_OOR_WINDOW, FACTS 2 NACK codes): for a packet dropped out
// of order (go-back-N), beyond the reorder buffer (selective repeat), or
// a READ request dropped ahead of its turn (takeReadReq). It returns the
// NAK, or nil when the hole was NAKed already.
func (n *NIC) nakHole(q *qpState, exp PSN, now rtlmodel.Time) *packet.Desc {
	if q.nakSent && q.lastNAK == uint32(exp) {
		return nil
	}
	q.nakSent, q.lastNAK = true, uint32(exp)
	return n.sendCtrl(q, now, flagNAK, uint32(exp), 0)
}

// noteMessage remembers the message a packet belongs to, in PSN order,
// with its last PSN (from the packet's offset, the message length and the
// MTU, as the responder's context knows them).
func (n *NIC) noteMessage(q *qpState, d *packet.Desc) {
	for i := len(q.recvMsgs) - 1; i >= 0; i-- {
		if q.recvMsgs[i].id == d.Meta.Msg {
			return
		}
	}
	mtu := uint64(n.cfg.MTU)
	rest := d.Meta.Length - d.Meta.Offset - uint64(d.Meta.Payload)
	last := PSN(d.Meta.PSN).Add(uint32((rest + mtu - 1) / mtu))
	m := recvMsg{lastPSN: last, length: d.Meta.Length, id: d.Meta.Msg, posted: rtlmodel.Time(d.Meta.Posted)}
	if d.Meta.Flags&flagSend != 0 {
		m.op = OpSend
	}
	i := len(q.recvMsgs)
	q.recvMsgs = append(q.recvMsgs, m)
	for i > 0 && PSNCompare(q.recvMsgs[i-1].lastPSN, last) > 0 {
		q.recvMsgs[i] = q.recvMsgs[i-1]
		i--
	}
	q.recvMsgs[i] = m
}

// completeInOrder completes every message whose last PSN the in-order
// point has passed: its data is in host memory, then its CQE.
func (n *NIC) completeInOrder(q *qpState, now rtlmodel.Time, lastPayload uint32) {
	exp := q.rw.Expected()
	k := 0
	for k < len(q.recvMsgs) && PSNCompare(q.recvMsgs[k].lastPSN, exp) < 0 {
		m := q.recvMsgs[k]
		q.msn++
		_, visible := n.host.Complete(now, lastPayload)
		n.st.rxMessages.Inc()
		n.st.rxBytes.Add(m.length)
		// every data packet carries its message's doorbell time, and a
		// doorbell at time 0 is a doorbell like any other
		n.st.oneWay.Record(uint64(visible - m.posted))
		if n.OnComplete != nil {
			n.OnComplete(Completion{Responder: true, Op: m.op, QP: q.id, Msg: m.id, Bytes: m.length, Posted: m.posted,
				Placed: now, Visible: visible})
		}
		k++
	}
	if k > 0 {
		q.recvMsgs = q.recvMsgs[:copy(q.recvMsgs, q.recvMsgs[k:])]
	}
}

// sendAck queues an ACK with the cumulative PSN, a SACK bitmap above it,
// the ECN echo and the last INT stack (HPCC).
func (n *NIC) sendAck(q *qpState, now rtlmodel.Time, immediate bool) {
	exp := q.rw.Expected()
	flags := uint16(flagAck)
	if q.ce {
		flags |= flagECE
	}
	d := n.sendCtrl(q, now, flags, uint32(exp), q.rw.SACK(exp))
	if q.lastINT {
		echoINT(d, &q.intv)
	}
	d.Meta.Sent = q.lastSent
	// the path the acknowledged data took, so a path-aware sender can
	// charge the ECN echo to it: the marked packet's, else the last one's
	d.Meta.Entropy = q.lastEntropy
	if q.ce {
		d.Meta.Entropy = q.ceEntropy
	}
	q.sinceAck, q.ackAt, q.ce, q.lastINT = 0, 0, false, false
	if immediate {
		n.st.ackImmediate.Inc()
	}
}

// sendCtrl queues a control frame (ACK, NAK, trim NACK or CNP) for q's
// peer, ahead of data. An ACK's descriptor carries psn, the next PSN
// expected; its headers name the PSN before it, the last one it
// acknowledges, as the standards write an ACK:
//   - IBTA: an ACK's BTH PSN is that of the last request it acknowledges,
//     a duplicate's that of the last one executed; a NAK's is the PSN
//     expected (Linux rxe, torvalds/linux:drivers/infiniband/sw/rxe/rxe_resp.c,
//     acknowledge and duplicate_request);
//   - UET: CACK_PSN covers every PSN up to and including itself, and
//     ack_psn_offset leads from it to the PSN of the packet the ACK
//     answers (UET 1.0 Table 3-35, as a UET libfabric provider's PDS code
//     reads it: public code hit, path not recorded).
//
// RoCEv2 ACKs and NAKs carry an AETH with the responder's MSN (ackMSN);
// the SACK bitmap travels in the descriptor's tail (flagSACK), a model
// extension (UET carries a 64-bit SACK in ACK_CC, FACTS 2.6).
func (n *NIC) sendCtrl(q *qpState, now rtlmodel.Time, flags uint16, psn uint32, sack uint64) *packet.Desc {
	d := n.ids.Number(n.pool.Get())
	h := hdr{dst: q.peer, destQP: q.peerQP, op: packet.RCAcknowledge, psn: psn, entropy: n.ctrlEntropy(q), class: 6,
		ctrl: flags, sack: sack}
	var msn uint32 // a responder's; a requester's read feedback (flagReadResp) has none
	if flags&flagReadResp == 0 {
		msn = q.ackMSN()
	}
	switch {
	case flags&flagCNP != 0:
		h.op = packet.OpCode(0x81)
		n.st.cnpSent.Inc()
	case flags&flagPull != 0:
		h.aeth = &packet.AETH{Syndrome: 0x1F}
		n.st.pulls.Inc()
	case flags&(flagNAK|flagTrimNAK) != 0:
		h.aeth = &packet.AETH{Syndrome: 0x60, MSN: msn}
		n.st.naks.Inc()
	default:
		h.aeth = &packet.AETH{Syndrome: 0x1F, MSN: msn}
		h.psn = uint32(PSN(psn).Sub(1)) // ackedPSN
		h.ackPSN = h.psn
		if flags&flagReadResp == 0 {
			h.ackPSN, h.retx = q.lastPSN, q.lastRetx
		}
		n.st.acks.Inc()
	}
	n.writeHeaders(d, &h)
	d.Src, d.Dst, d.Born = n.cfg.ID, q.peer, uint64(now)
	if sack != 0 {
		flags |= flagSACK
		d.EditTail().SACK = sack
	}
	d.Meta = packet.DescMeta{QP: q.id, DestQP: q.peerQP, PSN: psn, Flags: flags}
	n.sealICRC(d)
	if flags&(flagNAK|flagTrimNAK) != 0 {
		q.nackQueued, q.nackPSN = n.ctrlPushed+1, psn
	}
	n.ctrl.Push(d)
	n.ctrlPushed++
	n.st.ctrlWaiting.Set(int64(n.ctrl.Len()))
	return d
}

// nackWaiting reports whether q's last NACK or NAK still waits in the
// control queue and names a PSN at or before psn: a go-back-N sender
// that takes it sends psn again too. A receiver whose link cannot carry
// a NACK for every trimmed header (they are larger than the headers)
// coalesces them so, rather than NACK ever later what it was sent long
// before.
func (n *NIC) nackWaiting(q *qpState, psn PSN) bool {
	return q.nackQueued > n.ctrlSent && PSNCompare(PSN(q.nackPSN), psn) <= 0
}
