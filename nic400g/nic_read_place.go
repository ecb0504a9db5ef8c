package nic400g

import (
	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// placeReadResp takes the response psn of read r at the requester, or
// refuses it, and reports which. In order (Config.OOOReads off) only the
// next response is taken: a later one, or a trimmed one, is dropped and
// the read is issued again from the next. With OOOReads a response up to
// RecvWindow PSNs past the next is placed where its PSN says; a trimmed
// one is asked for alone (askTrimmed); and the read is issued again from
// the first missing one when ReorderTolerance responses past it have
// come and its own is overdue (suspectGap), and once more for the same
// gap when the ReorderTolerance responses just past it have come a
// second time (the request issued again passed the gap, and the gap's
// response was lost again).
// A taken response moves r.next past every response now placed in order,
// and r.got with it.
func (n *NIC) placeReadResp(q *qpState, r *readOut, psn PSN, d *packet.Desc, now rtlmodel.Time) bool {
	if d.Trimmed {
		n.st.rxTrimmed.Inc()
		if n.cfg.OOOReads {
			n.askTrimmed(q, r, psn, rtlmodel.Time(d.Meta.Sent), now)
		} else {
			n.readGap(q, r, now)
		}
		return false
	}
	if !n.cfg.OOOReads {
		switch {
		case PSNCompare(psn, r.next) > 0:
			n.st.rxOOODrop.Inc()
			n.readGap(q, r, now)
			return false
		case psn != r.next:
			n.st.rxDup.Inc()
			return false
		}
		r.next = r.next.Next()
		r.got += uint64(d.Meta.Payload)
		r.lastPayload = d.Meta.Payload
		return true
	}
	if r.held == nil {
		w, err := NewRecvWindow(n.cfg.RecvWindow, r.next)
		if err != nil {
			panic("nic400g: read window: " + err.Error()) // Config.Validate checked RecvWindow
		}
		r.held = w
	}
	if sent := rtlmodel.Time(d.Meta.Sent); sent != 0 && sent <= now {
		r.maxOWD = max(r.maxOWD, now-sent)
	}
	switch res, _ := r.held.Receive(psn); res {
	case RecvDuplicate:
		n.st.rxDup.Inc()
		if d := PSNDiff(psn, r.next); d > 0 && int(d) <= n.cfg.ReorderTolerance && r.gapSet && r.gapAt == r.next {
			// one of the responses just past the gap came again: the
			// request issued again is being served and has passed the
			// gap, whose own response was lost again. Those of an
			// earlier request, served further on, do not count.
			r.dupsPast++
			if r.dupsPast >= n.cfg.ReorderTolerance {
				r.gapSet = false
				n.readGap(q, r, now)
			}
		}
		return false
	case RecvOutOfWindow:
		n.st.rxOutOfWindow.Inc()
		if n.cfg.OOOReads && (!r.beyondSet || PSNCompare(psn, r.beyond) > 0) {
			r.beyond, r.beyondSet = psn, true
		}
		return false
	case RecvOutOfOrder:
		n.st.rxOOO.Inc()
		if r.held.Held() >= n.cfg.ReorderTolerance {
			n.suspectGap(q, r, rtlmodel.Time(d.Meta.Sent), now)
		}
	}
	moved := r.next != r.held.Expected()
	r.next = r.held.Expected()
	r.got = min(uint64(PSNDiff(r.next, PSN(r.m.firstPSN)))*uint64(n.cfg.MTU), r.m.wr.Bytes)
	r.lastPayload = d.Meta.Payload
	if moved && r.beyondSet {
		n.askBeyond(q, r, now)
	}
	return true
}

// readGap issues read r again from its next response, once for each
// place the gap is found at.
func (n *NIC) readGap(q *qpState, r *readOut, now rtlmodel.Time) {
	if !r.gapSet || r.gapAt != r.next {
		r.gapSet, r.gapAt, r.dupsPast = true, r.next, 0
		q.markReissue(r)
		n.reconsider(q, now)
	}
}
