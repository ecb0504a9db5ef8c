package nic400g

import (
	"slices"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// rspFlight is how far a responder has sent one read message's responses
// and how far the requester has placed them (its read feedback), as
// offsets in the message: the bytes between are the message's responses
// in flight. A re-issued request from offset o says the requester placed
// everything before o and dropped the rest, so both points move to o.
type rspFlight struct {
	msg          uint32
	length       uint64
	sent, placed uint64
}

// out is the bytes of f's responses in flight.
func (f *rspFlight) out() uint64 {
	if f.sent > f.placed {
		return f.sent - f.placed
	}
	return 0
}

// rspFlightOf returns the flight record of read message msg of length
// length, making it if the QP has none.
func (q *qpState) rspFlightOf(msg uint32, length uint64) *rspFlight {
	for i := range q.rspOut {
		if q.rspOut[i].msg == msg {
			return &q.rspOut[i]
		}
	}
	q.rspOut = append(q.rspOut, rspFlight{msg: msg, length: length})
	return &q.rspOut[len(q.rspOut)-1]
}

// moveRspFlight applies a change of a record's points to q.inflight, the
// bytes the QP's window counts (its own data and its read responses),
// and drops the record once the whole message is placed. It returns how
// many bytes the change took out of flight.
func (q *qpState) moveRspFlight(f *rspFlight, sent, placed uint64) uint64 {
	before := f.out()
	f.sent, f.placed = sent, placed
	after := f.out()
	var left uint64
	if after >= before {
		q.inflight += after - before
	} else {
		left = before - after
		q.inflight -= min(q.inflight, left)
	}
	if f.placed >= f.length {
		q.rspOut = slices.DeleteFunc(q.rspOut, func(o rspFlight) bool { return o.msg == f.msg })
	}
	return left
}

// rspSent counts a response of message msg that ends at end as sent at
// now, and restarts the responses' timer. It returns the bytes the
// response added to the flight: none when the requester's feedback has
// placed it already, or it was sent before and counts still.
func (n *NIC) rspSent(q *qpState, msg uint32, length, end uint64, now rtlmodel.Time) uint64 {
	f := q.rspFlightOf(msg, length)
	sent, placed, before := max(f.sent, end), f.placed, f.out()
	q.moveRspFlight(f, sent, placed)
	q.rspRTO = now + n.cfg.RTO
	after := sent - min(sent, placed)
	return after - min(after, before)
}

// rspPlaced takes the requester's feedback that message msg is placed up
// to offset placed; it returns the bytes newly known to have arrived.
func (n *NIC) rspPlaced(q *qpState, msg uint32, length, placed uint64, now rtlmodel.Time) uint64 {
	if placed >= length {
		q.dropRspAsked(msg)
	}
	f := q.rspFlightOf(msg, length)
	if placed <= f.placed {
		return 0
	}
	left := q.moveRspFlight(f, f.sent, placed)
	n.restartRspTimer(q, now)
	return left
}

// rspReissued takes a request of message msg issued again from offset:
// what was sent past it is no longer counted in flight, and everything
// before it is placed. It returns the bytes that left the flight.
func (n *NIC) rspReissued(q *qpState, msg uint32, length, offset uint64, now rtlmodel.Time) uint64 {
	f := q.rspFlightOf(msg, length)
	left := q.moveRspFlight(f, offset, max(f.placed, offset))
	n.restartRspTimer(q, now)
	return left
}

// restartRspTimer runs the responses' timer from now while any are in
// flight, and stops it when none are.
func (n *NIC) restartRspTimer(q *qpState, now rtlmodel.Time) {
	q.rspRTO = 0
	for i := range q.rspOut {
		if q.rspOut[i].out() > 0 {
			q.rspRTO = now + n.cfg.RTO
			return
		}
	}
}

// rspTimeout takes every response still counted in flight as gone when
// no feedback has come for an RTO since the last was sent: the requester
// issues again whatever it still lacks, and the feedback on what it got
// may itself have been lost. Counted until then, the responses of a read
// whose last feedback was lost held the QP's window shut for good, and
// with the window the data it sends. Responses counted in flight that
// no feedback came for are losses to the congestion control, as a
// writer's timeout is (LossTimeout).
func (n *NIC) rspTimeout(q *qpState, now rtlmodel.Time) {
	var out uint64
	for i := range q.rspOut {
		f := &q.rspOut[i]
		out += f.out()
		q.inflight -= min(q.inflight, f.out())
	}
	if out > 0 {
		n.st.rspTimeouts.Inc()
		if q.eq == nil {
			q.cc.OnLoss(now, LossTimeout)
		} else {
			q.eq.OnRewind(now, out) // sent again, if at all, by a request issued again
		}
	}
	q.rspOut = q.rspOut[:0]
	q.rspRTO = 0
}
