package nic400g

import (
	"slices"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// READ responses under EQDS. The responder is the data's sender and the
// requester its receiver, so the responses go as a writer's data goes:
// the responder spends its speculative allowance first, then credit the
// requester's pulls grant, and asks for that credit on its responses. The
// requester's pacer pulls for what they ask at its share of the line
// rate, with everything else coming to it.
//
// Each response carries, in Meta.Credit, the credit the read's responses
// have asked for so far (its low 32 bits), so a request is never lost
// with a response: the next response, a copy sent again, a duplicate or
// a trimmed header tells the requester the total again, and the
// requester asks its pacer for what the total grew by since the last it
// saw (eqdsTakeAsk); an older total, from a response overtaken on the
// way, is behind it and asks for nothing. A job asks, on its first
// response, for what it sends that no earlier request asked for: the
// whole read for the first request, what it sends again for one issued
// again (dropStaleJob); the allowance given up when speculation ends is
// asked for on the next response, as a writer's next packet asks for it;
// a response short of credit when no credit asked for is still to come
// asks for the rest of its job. A job's first response may borrow the
// credit it lacks, so that a request issued again always brings the
// requester the total; and the responder's EQDSSender times the pulls it
// waits for as a writer's does, so a pull lost costs a timeout, not the
// read.

// rspAsked is the credit read message msg's responses have asked for.
type rspAsked struct {
	msg   uint32
	total uint64
}

// maxAskStep bounds what the total a read's responses carry grows by
// from one response to the next, so that the requester, reading 32 bits
// of it, tells a newer total from an older one (within half the range).
const maxAskStep = 1 << 30

// rspAskedOf returns the credit asked for by read message msg's
// responses, making the record if the QP has none.
func (q *qpState) rspAskedOf(msg uint32) *uint64 {
	for i := range q.rspAsks {
		if q.rspAsks[i].msg == msg {
			return &q.rspAsks[i].total
		}
	}
	q.rspAsks = append(q.rspAsks, rspAsked{msg: msg})
	return &q.rspAsks[len(q.rspAsks)-1].total
}

// dropRspAsked forgets read message msg's record, once the requester has
// placed the whole read.
func (q *qpState) dropRspAsked(msg uint32) {
	if len(q.rspAsks) != 0 {
		q.rspAsks = slices.DeleteFunc(q.rspAsks, func(a rspAsked) bool { return a.msg == msg })
	}
}

// eqdsMayRespond reports whether the head job's next response may leave
// now under EQDS: against credit; or, borrowing against the credit it
// asks for (EQDSSender.CanCarryRequest), when it is the job's first,
// carries the allowance given up, or is short of credit with none owed
// (eqdsRespond asks for the rest of the job), as a writer's packet that
// carries a request borrows when none is owed (EQDSSender.CanStart).
func (n *NIC) eqdsMayRespond(q *qpState) bool {
	j := &q.rsps[0]
	b := uint32(min(uint64(n.cfg.MTU), j.end-j.offset))
	if q.eq.CanSend(b) {
		return true
	}
	if !j.asked || q.eq.Reclaiming() || q.eq.Owed() == 0 {
		return q.eq.CanCarryRequest(b)
	}
	return false
}

// eqdsRespond spends the credit of response d of job j, of payload bytes,
// adds to the read's total the credit it asks for, and puts the total on
// it: on the job's first response, the job's own request less what the
// speculative allowance will cover (ClaimSpeculative); on any, the
// allowance given up since the last request, or the rest of the job when
// short of credit with none owed. Of its payload only the bytes it added
// to the read's flight (rspSent) count in flight: a response the
// requester's feedback has placed already, sent again by a request issued
// again for a gap before it, would never be acknowledged.
func (n *NIC) eqdsRespond(q *qpState, j *readJob, d *packet.Desc, payload uint32, added uint64, now rtlmodel.Time) {
	if q.eq.Speculating() {
		d.Meta.Flags |= flagSpec
	}
	ask := q.eq.TakeReclaim()
	if !j.asked {
		j.asked = true
		ask += j.ask - q.eq.ClaimSpeculative(j.ask)
	}
	if rest, have := j.end-j.offset, q.eq.Credit(); ask == 0 && q.eq.Owed() == 0 && rest > have {
		ask = rest - have // short of credit, with none to come
	}
	if ask > maxAskStep {
		q.eq.GiveBack(ask - maxAskStep) // the next responses ask for the rest
		ask = maxAskStep
	}
	q.eq.Ask(ask)
	total := q.rspAskedOf(j.msg)
	*total += ask
	d.Meta.Credit = uint32(*total)
	q.eq.OnSend(now, payload)
	if held := uint64(payload) - min(uint64(payload), added); held != 0 {
		q.eq.OnSendHeld(held)
	}
}

// eqdsTakeAsk is the requester's side of the credit total a response d
// of read r carries, whatever becomes of the response: the pacer takes
// what the total grew by since the last the requester saw.
func (n *NIC) eqdsTakeAsk(q *qpState, r *readOut, d *packet.Desc, now rtlmodel.Time) {
	if grew := d.Meta.Credit - r.askSeen; grew != 0 && grew < 1<<31 {
		r.askSeen = d.Meta.Credit
		n.pacer.Request(now, q.id, uint64(grew))
	}
}
