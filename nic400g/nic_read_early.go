package nic400g

import "github.com/fabricmodel/fabricmodel/rtlmodel"

// A READ request sprayed over paths of different lengths can overtake a
// packet sent before it on its QP: another read's request, or a WRITE's
// data. IBTA's responder discards it (a PSN sequence error), and the
// requester learns of it only at its timeout. Under selective repeat,
// whose receiver holds data that overtakes a hole, the responder holds
// such a request too, and takes it when the expected PSN reaches it, so
// that reads and writes still execute in PSN order. Under go-back-N, or
// with no room to hold it, it drops the request and NAKs the hole in
// front of it, as IBTA's responder does a sequence error, and the
// requester issues again every read the responder has not taken.

// maxEarlyReads bounds the read requests a QP holds ahead of its expected
// PSN; one more is dropped, as IBTA's responder drops them all.
const maxEarlyReads = 16

// earlyRead is what the responder keeps of a read request.
type earlyRead struct {
	psn    PSN
	msg    uint32
	offset uint64 // the first byte asked for
	end    uint64 // one past the last byte asked for
	length uint64 // the message's length
	posted rtlmodel.Time
	// a request for part of the read only (nic_read_range.go)
	part bool
}

// holdEarlyRead keeps request r, which came ahead of the expected PSN,
// for its turn, and reports whether it did: under selective repeat, up
// to maxEarlyReads of them, within the receive window, and each PSN once.
func (n *NIC) holdEarlyRead(q *qpState, r earlyRead) bool {
	if n.cfg.Recovery != SelectiveRepeat || len(q.early) >= maxEarlyReads ||
		PSNDiff(r.psn, q.rw.Expected()) >= int32(q.rw.Size()) {
		return false
	}
	for _, e := range q.early {
		if e.psn == r.psn {
			n.st.rxDup.Inc()
			return true
		}
	}
	n.st.earlyReads.Inc()
	q.early = append(q.early, r)
	return true
}

// takeEarlyReads takes the held request the expected PSN has reached, if
// any (takeReadReq then looks again), and drops those it has passed: the
// PSNs they reserve were taken another way, by a request issued again.
func (n *NIC) takeEarlyReads(q *qpState, now rtlmodel.Time) {
	exp := q.rw.Expected()
	k := 0
	var due earlyRead
	found := false
	for _, r := range q.early {
		switch c := PSNCompare(r.psn, exp); {
		case c == 0 && !found:
			due, found = r, true
		case c > 0:
			q.early[k] = r
			k++
		}
	}
	q.early = q.early[:k]
	if found {
		n.takeReadReq(q, due, now)
	}
}

// reissueNAKed issues again every read of q whose request the responder
// dropped: a NAK at psn says it discarded what came from psn on, and a
// read it took reserved its PSNs there, so a read from psn on with no
// response yet was not taken.
func (n *NIC) reissueNAKed(q *qpState, psn PSN, now rtlmodel.Time) {
	for i := range q.reads {
		r := &q.reads[i]
		if first := PSN(r.m.firstPSN); r.next == first && PSNCompare(first, psn) >= 0 {
			q.markReissue(r)
			n.reconsider(q, now)
		}
	}
}
