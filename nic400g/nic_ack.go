package nic400g

import (
	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// rxAck is the requester's handling of an ACK, NAK or trim NACK.
func (n *NIC) rxAck(d *packet.Desc, now rtlmodel.Time) {
	q := n.qps[d.Meta.DestQP]
	if q == nil || q.cc == nil {
		n.st.staleAcks.Inc()
		return
	}
	if d.Meta.Flags&flagTrimNAK != 0 {
		// a trim NACK names one packet; it acknowledges nothing
		n.rxTrimNAK(q, d, now)
		return
	}
	cum := PSN(d.Meta.PSN)
	if PSNCompare(cum, q.cumAck) > 0 {
		// ACKs can arrive out of order (sprayed paths): an older one
		// acknowledges nothing new and must not take the point back
		q.cumAck = cum
	}
	var acked, notInFlight uint64
	k := 0
	for k < len(q.unacked) && PSNCompare(PSN(q.unacked[k].psn), cum) < 0 {
		p := &q.unacked[k]
		if !p.sacked {
			acked += uint64(p.payload)
		}
		if p.lost {
			if p.pending {
				q.retxQ--
			}
			if !p.sacked {
				notInFlight += uint64(p.payload) // left inflight when it was lost (markLost)
			}
		}
		k++
	}
	if k > 0 {
		q.dropAcked(k)
	}
	flags := d.Meta.Flags
	if flags&(flagAck|flagSACK) == flagAck|flagSACK {
		sacked, queued := n.applySACK(q, cum, d.Tail().SACK)
		acked += sacked
		notInFlight += queued
	}
	q.inflight -= min(q.inflight, acked-notInFlight)
	if k > 0 || acked > 0 {
		q.progressed()
	}
	if k > 0 && q.rtoRecover != 0 {
		// as TCP's slow start after a timeout: two resends for each
		// packet acknowledged, so the batches double each round trip
		n.resendLost(q, 2*k)
	}
	if flags&flagNAK != 0 {
		n.st.nakRecv.Inc()
		q.cc.OnLoss(now, LossNACK)
		if q.eq == nil {
			n.reissueNAKed(q, cum, now)
		}
		switch {
		case q.eq != nil:
			n.eqdsResendHole(q, rtlmodel.Time(d.Meta.Sent))
		case n.cfg.Recovery == SelectiveRepeat:
			n.resendUnsacked(q)
		default:
			n.rewind(q, 0)
		}
	}
	if flags&flagAck != 0 {
		ev := &n.ackEv
		*ev = AckEvent{AckedBytes: acked, ECE: flags&flagECE != 0, Entropy: d.Meta.Entropy}
		if d.Meta.Sent != 0 {
			ev.RTT = now - rtlmodel.Time(d.Meta.Sent)
		}
		if flags&flagINT != 0 {
			ev.INT = &d.Tail().INT
			n.countINT(ev.INT)
		}
		q.cc.OnAck(now, ev)
		q.endPacingGap(now)
		fb := PathOK
		if ev.ECE {
			fb = PathECN
		}
		q.paths.OnFeedback(now, d.Meta.Entropy, fb)
	}
	n.completeAcked(q, now, q.cumAck)
	if len(q.unacked) == 0 {
		q.rtoAt = 0
	} else if k > 0 {
		q.rtoAt = now + n.cfg.RTO
		if q.eq != nil {
			n.eqdsRetime(q)
		}
	}
	q.stopTimerIfNothingInFlight()
	n.reconsider(q, now)
}

// rxTrimNAK queues the packet a switch trimmed for retransmission (fast
// retransmit on a trim NACK; under EQDS against the credit the receiver
// pulls for it). Under EQDS it queues that packet alone, go-back-N too:
// the go-back-N receiver NACKs and pulls for each packet it drops out of
// order as for a trimmed one (eqdsOnDropped, a NACK also flagged flagNAK),
// so every packet behind a hole is queued by its own NACK, against its
// own pull, and none is resent unsolicited.
func (n *NIC) rxTrimNAK(q *qpState, d *packet.Desc, now rtlmodel.Time) {
	if d.Meta.Flags&flagNAK != 0 {
		n.st.nakRecv.Inc() // a packet dropped out of order, not trimmed
	} else {
		n.st.trimNakRecv.Inc()
	}
	if q.eq == nil {
		q.cc.OnLoss(now, LossTrimmed)
	}
	for i := range q.unacked {
		p := &q.unacked[i]
		if p.psn != d.Meta.PSN {
			continue
		}
		if q.eq != nil {
			// the receiver took the packet's request from its header and
			// pulls for its payload
			q.eq.OnNACK(now, p.payload)
			p.ask, p.trimmed = 0, true
		}
		if d.Meta.Flags&flagNAK == 0 { // a trim tells of the path; a drop out of order (flagNAK) does not
			q.paths.OnFeedback(now, p.entropy, PathTrim)
		}
		if n.cfg.Recovery == GoBackN && q.eq == nil {
			n.rewind(q, i)
		} else if !p.pending && !p.sacked {
			q.markPending(p)
		}
		if q.eq != nil {
			n.eqdsRetime(q)
		} else {
			q.stopTimerIfNothingInFlight()
		}
		break
	}
	n.reconsider(q, now)
}

// applySACK marks packets the bitmap reports and, for selective repeat,
// queues holes that Config.ReorderTolerance later packets have overtaken.
// It returns the payload bytes newly known to have arrived, and of them
// those of packets taken as lost, which had left inflight already
// (markLost).
func (n *NIC) applySACK(q *qpState, base PSN, sack uint64) (bytes, queued uint64) {
	highest := -1
	for i := range q.unacked {
		p := &q.unacked[i]
		d := PSNDiff(PSN(p.psn), base)
		if d < 0 || d >= 64 {
			continue
		}
		if sack>>uint(d)&1 != 0 {
			if !p.sacked {
				p.sacked = true
				bytes += uint64(p.payload)
				if p.lost {
					queued += uint64(p.payload)
				}
				if p.pending {
					p.pending = false
					q.retxQ--
				}
			}
			highest = i
		}
	}
	if n.cfg.Recovery != SelectiveRepeat || highest < 0 {
		return bytes, queued
	}
	// A hole is lost when enough packets sent after it (after its last
	// retransmission) have arrived: counting only those keeps a hole whose
	// new copy is still in flight from being sent again on every ACK.
	for i := highest; i >= 0; i-- {
		p := &q.unacked[i]
		if p.sacked || p.pending {
			continue
		}
		later := 0
		for j := i + 1; j <= highest && later < n.cfg.ReorderTolerance; j++ {
			if o := &q.unacked[j]; o.sacked && o.sentAt > p.sentAt {
				later++
			}
		}
		if later >= n.cfg.ReorderTolerance {
			q.markPending(p)
			n.st.sackRetx.Inc()
			if q.eq != nil {
				// resent without credit (eqdsMaySend), which puts its
				// bytes in flight again: out of flight until then, as a
				// go-back-N rewind takes them
				q.eq.OnRewind(n.h.Now(), uint64(p.payload))
			}
		}
	}
	return bytes, queued
}

// completeAcked completes, in order, the messages all of whose packets
// the cumulative ACK covers.
func (n *NIC) completeAcked(q *qpState, now rtlmodel.Time, cum PSN) {
	k := 0
	for k < q.seg && k < len(q.msgs) {
		m := q.msgs[k]
		var visible rtlmodel.Time
		if m.wr.Op == OpRead {
			// complete when the last response's data is in host memory,
			// then the CQE
			if !m.readDone {
				break
			}
			_, visible = n.host.Complete(now, m.lastPayload)
		} else {
			last := PSN(m.firstPSN).Add(m.packets - 1)
			if PSNCompare(last, cum) >= 0 {
				break
			}
			visible = n.host.WriteCQE(now)
		}
		n.st.txMessages.Inc()
		n.emitCompletion(Completion{Op: m.wr.Op, QP: q.id, Msg: m.id, Bytes: m.wr.Bytes, Posted: m.wr.Posted, Placed: now, Visible: visible}, visible)
		k++
	}
	if k > 0 {
		q.msgs = q.msgs[:copy(q.msgs, q.msgs[k:])]
		q.seg -= k
	}
}

// emitCompletion tells OnComplete and the driver of a requester
// completion whose CQE is visible at visible.
func (n *NIC) emitCompletion(c Completion, visible rtlmodel.Time) {
	if n.OnComplete != nil {
		n.OnComplete(c)
	}
	if n.cqes != nil {
		if n.cqes.CanSend() {
			n.cqes.SendAt(c, visible)
		} else {
			n.st.cqeOverflow.Inc()
		}
	}
}

// obeyPFC pauses the NIC's transmitter for the quanta of class 0 (data)
// in a PFC frame from the switch (FACTS 2.7).
func (n *NIC) obeyPFC(d *packet.Desc, now rtlmodel.Time) {
	n.st.pfcRecv.Inc()
	pfc := d.Tail()
	if pfc.PFCClasses&1 == 0 {
		return
	}
	q := rtlmodel.Time(pfc.PFCQuanta[0])
	n.pauseUntil = now + q*n.quantum
	n.st.paused.Set(now, n.pauseUntil)
}

// SettleCounters brings the counters that count time (the PFC pause
// time) up to now, the time the model has run to: call it between runs,
// before reading them. Nothing the NIC does depends on it.
func (n *NIC) SettleCounters(now rtlmodel.Time) { n.st.paused.Settle(now) }

// PausedTime returns the time, to the last settle, that PFC frames from
// the switch paused the NIC's transmitter.
func (n *NIC) PausedTime() rtlmodel.Time { return rtlmodel.Time(n.st.paused.Counter().Value()) }
