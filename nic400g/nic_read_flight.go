package nic400g

import (
	"slices"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// rspFlight is how far a responder has sent one read message's responses
// and how far the requester has placed them in order (its read
// feedback), as offsets in the message: the bytes between are the
// message's responses in flight, but for those the requester's feedback
// says it holds past the placed point (held, Config.OOOReads) and those
// it asked for again by range that were not sent again yet (gone). A
// re-issued request from offset o says the requester placed everything
// before o and dropped the rest, so both points move to o; one for a
// range (trimmed responses, or responses dropped beyond the requester's
// window) takes the range's bytes out of flight until they are sent
// again.
type rspFlight struct {
	msg          uint32
	length       uint64
	sent, placed uint64
	held, gone   uint64
}

// out is the bytes of f's responses in flight.
func (f *rspFlight) out() uint64 {
	if f.sent > f.placed {
		return f.sent - f.placed - min(f.held+f.gone, f.sent-f.placed)
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

// moveRspFlight moves record f to the points of to, applies the change
// to q.inflight, the bytes the QP's window counts (its own data and its
// read responses), and drops the record once the whole message is
// placed. It returns how many bytes the change took out of flight.
func (q *qpState) moveRspFlight(f *rspFlight, to rspFlight) uint64 {
	before := f.out()
	f.sent, f.placed, f.held, f.gone = to.sent, to.placed, to.held, to.gone
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

// rspSent counts a response of message msg of payload bytes at offset
// as sent at now, and restarts the responses' timer. A response sent
// before and asked for again as trimmed comes back into flight. It
// returns the bytes the response added to the flight: none when the
// requester's feedback has placed it already, or it was sent before and
// counts still.
func (n *NIC) rspSent(q *qpState, msg uint32, length, offset, payload uint64, now rtlmodel.Time) uint64 {
	f := q.rspFlightOf(msg, length)
	to := *f
	end := offset + payload
	if offset < f.sent && end > f.placed {
		to.gone -= min(to.gone, min(end, f.sent)-max(offset, f.placed))
	}
	to.sent = max(f.sent, end)
	before := f.out()
	after := to.out()
	q.moveRspFlight(f, to)
	q.rspRTO = now + n.cfg.RTO
	return after - min(after, before)
}

// rspPlaced takes the requester's feedback that message msg is placed in
// order up to offset placed, with held bytes past it placed out of
// order; it returns the bytes newly known to have arrived. Feedback
// behind the last, overtaken on the way, is ignored.
func (n *NIC) rspPlaced(q *qpState, msg uint32, length, placed, held uint64, now rtlmodel.Time) uint64 {
	if placed >= length {
		q.dropRspAsked(msg)
	}
	f := q.rspFlightOf(msg, length)
	to := *f
	switch {
	case placed > f.placed:
		to.placed, to.held = placed, held
	case placed == f.placed && held > f.held:
		to.held = held
	default:
		return 0
	}
	left := q.moveRspFlight(f, to)
	n.restartRspTimer(q, now)
	return left
}

// rspReissued takes a request of message msg issued again from offset:
// what was sent past it is no longer counted in flight, and everything
// before it is placed. It returns the bytes that left the flight.
func (n *NIC) rspReissued(q *qpState, msg uint32, length, offset uint64, now rtlmodel.Time) uint64 {
	f := q.rspFlightOf(msg, length)
	left := q.moveRspFlight(f, rspFlight{sent: offset, placed: max(f.placed, offset)})
	n.restartRspTimer(q, now)
	return left
}

// rspRangeLost takes a request of message msg for the bytes [offset,
// end), which the requester lost: those of them counted in
// flight leave it until they are sent again. It returns the bytes that
// left the flight.
func (n *NIC) rspRangeLost(q *qpState, msg uint32, length, offset, end uint64, now rtlmodel.Time) uint64 {
	f := q.rspFlightOf(msg, length)
	to := *f
	hi := min(end, f.sent)
	to.gone += hi - min(max(offset, f.placed), hi)
	left := q.moveRspFlight(f, to)
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
