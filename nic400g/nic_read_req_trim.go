package nic400g

import (
	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// A READ request a switch trimmed. A switch that trims cuts a frame to
// its trim size, and a read request (78 bytes over RoCEv2/IPv4) is cut
// inside its RETH: the responder still reads the BTH, so it knows the
// request's PSN, but not what the request asked for. It answers with a
// NACK of that PSN (flagTrimNAK with flagReadResp, a model extension as
// the read feedback is), and the requester sends the request again: a
// range of trimmed responses it had asked for goes back to be asked for,
// and any other request becomes a request for the rest of its read.

// nakTrimmedReadReq answers trimmed read request d with a NACK of its
// PSN.
func (n *NIC) nakTrimmedReadReq(d *packet.Desc, now rtlmodel.Time) {
	n.st.rxTrimmed.Inc()
	q := n.responder(d)
	n.sendCtrl(q, now, flagTrimNAK|flagReadResp, d.Meta.PSN, 0)
}

// rxReadReqNAK is the requester's handling of the NACK of a read request
// that was trimmed on the way: the read whose PSNs hold the request's
// asks for the same again.
func (n *NIC) rxReadReqNAK(d *packet.Desc, now rtlmodel.Time) {
	q := n.qps[d.Meta.DestQP]
	psn := PSN(d.Meta.PSN)
	if q == nil {
		n.st.staleAcks.Inc()
		return
	}
	n.st.nakRecv.Inc()
	for i := range q.reads {
		r := &q.reads[i]
		if PSNCompare(psn, PSN(r.m.firstPSN)) < 0 || PSNCompare(psn, r.end) >= 0 {
			continue
		}
		for k, a := range r.asked {
			if a.from == psn {
				r.asked = append(r.asked[:k], r.asked[k+1:]...)
				if !r.pending() {
					q.readsPending++
				}
				r.asks = append(r.asks, a)
				n.reconsider(q, now)
				return
			}
		}
		q.markReissue(r)
		n.reconsider(q, now)
		return
	}
	n.st.staleAcks.Inc() // the read completed
}
