package nic400g

import (
	"math"
	"slices"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// READ responses under EQDS. The responder is the data's sender and the
// requester its receiver, so the responses go as a writer's data goes:
// the responder spends its speculative allowance first, then credit the
// requester's pulls grant, and its credit requests ride on responses
// (Meta.Credit). The requester's pacer takes a request when it places the
// response that carries it, never from a duplicate or a trimmed header,
// and pulls for it at its share of the line rate with everything else
// coming to it.
//
// A request belongs to the offset of the response that carries it
// (rspAsk), and every copy of that response sent again carries it again
// until the requester's feedback says the offset is placed: a response
// dropped, trimmed or lost loses no request, and the requester, placing
// each offset once, takes each request once. A job asks, on its first
// response, for what it sends that no earlier request asked for: the
// whole read for the first request, what it sends again for one issued
// again (dropStaleJob); the allowance given up when speculation ends is
// asked for on the next response, as a writer's next packet asks for it.
// A response short of credit when no credit asked for is still to come
// asks for the rest of its job, so the responder never waits for a pull
// nobody will send; and its EQDSSender times the pulls it waits for as a
// writer's does, so a pull lost costs a timeout, not the read.

// rspAsk is a credit request of read message msg, carried by the
// response at offset.
type rspAsk struct {
	msg    uint32
	offset uint64
	bytes  uint64
}

// rspAskAt returns the credit requested by the responses of read message
// msg at offset.
func (q *qpState) rspAskAt(msg uint32, offset uint64) uint64 {
	var b uint64
	for _, a := range q.rspAsks {
		if a.msg == msg && a.offset == offset {
			b += a.bytes
		}
	}
	return b
}

// addRspAsk puts a credit request of bytes on the response of read
// message msg at offset.
func (q *qpState) addRspAsk(msg uint32, offset, bytes uint64) {
	if bytes == 0 {
		return
	}
	for i := range q.rspAsks {
		if a := &q.rspAsks[i]; a.msg == msg && a.offset == offset {
			a.bytes += bytes
			return
		}
	}
	q.rspAsks = append(q.rspAsks, rspAsk{msg: msg, offset: offset, bytes: bytes})
}

// dropRspAsks forgets the credit requests of read message msg at offsets
// below placed: the requester placed those responses and took them.
func (q *qpState) dropRspAsks(msg uint32, placed uint64) {
	if len(q.rspAsks) == 0 {
		return
	}
	q.rspAsks = slices.DeleteFunc(q.rspAsks, func(a rspAsk) bool { return a.msg == msg && a.offset < placed })
}

// eqdsMayRespond reports whether the head job's next response may leave
// now under EQDS: against credit, or, when it carries a credit request,
// borrowing against what it asks for (EQDSSender.CanCarryRequest). A
// request that rides again on a response sent again may be the credit
// owed, and no pull would come for it while the response waited. A
// response short of credit when none is owed asks for the rest of its
// job (eqdsRespond), as a writer's packet that carries a request borrows
// when none is owed (EQDSSender.CanStart).
func (n *NIC) eqdsMayRespond(q *qpState) bool {
	j := &q.rsps[0]
	b := uint32(min(uint64(n.cfg.MTU), j.length-j.offset))
	if !j.asked || q.eq.Reclaiming() || q.rspAskAt(j.msg, j.offset) != 0 || q.eq.Owed() == 0 {
		return q.eq.CanSend(b) || q.eq.CanCarryRequest(b)
	}
	return q.eq.CanSend(b)
}

// eqdsRespond spends the credit of response d of job j, of payload bytes,
// and puts on it the credit requests its offset carries: with the job's
// own, less what the speculative allowance will cover (ClaimSpeculative),
// on its first response, and the allowance given up since the last
// request. Of its payload only the bytes it added to the read's flight
// (rspSent) count in flight: a response the requester's feedback has
// placed already, sent again by a request issued again for a gap before
// it, would never be acknowledged.
func (n *NIC) eqdsRespond(q *qpState, j *readJob, d *packet.Desc, payload uint32, added uint64, now rtlmodel.Time) {
	if q.eq.Speculating() {
		d.Meta.Flags |= flagSpec
	}
	ask := q.eq.TakeReclaim()
	if !j.asked {
		j.asked = true
		ask += j.ask - q.eq.ClaimSpeculative(j.ask)
	}
	if rest, have := j.length-j.offset, q.eq.Credit(); ask == 0 && q.eq.Owed() == 0 && rest > have {
		// short of credit with none to come: ask for the rest of the
		// job (a request lost where no copy carries it again)
		ask = rest - have
	}
	q.eq.Ask(ask)
	q.addRspAsk(j.msg, j.offset, ask)
	d.Meta.Credit = uint32(min(q.rspAskAt(j.msg, j.offset), math.MaxUint32))
	q.eq.OnSend(now, payload)
	if held := uint64(payload) - min(uint64(payload), added); held != 0 {
		q.eq.OnSendHeld(held)
	}
}

// eqdsOnReadResp is the requester's side of a read response d it placed
// under EQDS: the pacer takes the credit request it carries, and a
// speculative one is charged to the pacer as unsolicited data.
func (n *NIC) eqdsOnReadResp(q *qpState, d *packet.Desc, now rtlmodel.Time) {
	if d.Meta.Credit != 0 {
		n.pacer.Request(now, q.id, uint64(d.Meta.Credit))
	}
	if d.Meta.Flags&flagSpec != 0 {
		n.pacer.Charge(now, uint64(d.Meta.Payload))
	}
}
