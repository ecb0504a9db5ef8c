package nic400g

import (
	"fmt"
	"math/bits"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// RecvCreditPacer is the receiver side of the EQDS-style credit scheme
// (FACTS 2.5: "The receiver NIC paces PULL (credit) packets at its own
// link rate", U; htsim model S [R19]). Senders ask for credit (Request,
// from the backlog a data packet announces or for the payload of a
// trimmed header); the pacer grants it in pulls of at most CreditPerPull
// bytes, round robin over the senders with credit pending, one pull per
// wire time of the bytes it grants: WireBytes(credit) at PacerPermille of
// LineRate, in exact picoseconds with the remainder carried, so that the
// data the pulls bring back keeps the receiver link just under full and
// no standing queue builds. While nobody waits for credit the pacer
// sleeps (NextEvent is Forever) and banks no idle time. It also counts
// each sender's unacknowledged bytes for ACK coalescing (OnData).
//
// Accounting: requested = granted + pending, per sender and in total.
// Senders are numbered 0..n−1. No allocation after construction.
type RecvCreditPacer struct {
	p *EQDSParams

	senders []pacerSender
	ring    []uint32 // round-robin queue of senders with credit pending
	head    uint32
	size    uint32

	next rtlmodel.Time // earliest time of the next grant
	rem  uint64        // pacing remainder, in units of 1/den ps
	den  uint64        // LineRate·PacerPermille

	requested, granted, pulls, charged uint64
}

type pacerSender struct {
	pending, unacked   uint64
	requested, granted uint64
	queued             bool
}

// NewRecvCreditPacer returns a pacer for senders 0..n−1.
func NewRecvCreditPacer(p *EQDSParams, n int) (*RecvCreditPacer, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if n <= 0 || n > 1<<24 {
		return nil, fmt.Errorf("RecvCreditPacer: %d senders outside 1..2^24", n)
	}
	return &RecvCreditPacer{
		p:       p,
		senders: make([]pacerSender, n),
		ring:    make([]uint32, n),
		den:     p.LineRate * uint64(p.PacerPermille),
	}, nil
}

// Request adds bytes to the credit sender waits for, at now. A pacer that
// was idle grants its first pull at now at the earliest.
func (r *RecvCreditPacer) Request(now rtlmodel.Time, sender uint32, bytes uint64) {
	if bytes == 0 {
		return
	}
	s := &r.senders[sender]
	s.pending += bytes
	s.requested += bytes
	r.requested += bytes
	if r.size == 0 {
		r.next = max(r.next, now)
	}
	if !s.queued {
		r.push(sender)
	}
}

func (r *RecvCreditPacer) push(sender uint32) {
	tail := r.head + r.size
	if tail >= uint32(len(r.ring)) {
		tail -= uint32(len(r.ring))
	}
	r.ring[tail] = sender
	r.size++
	r.senders[sender].queued = true
}

// NextEvent returns the time of the next grant, or Forever when no
// sender waits for credit.
func (r *RecvCreditPacer) NextEvent() rtlmodel.Time {
	if r.size == 0 {
		return rtlmodel.Forever
	}
	return r.next
}

// Grant issues the next pull if one is due at now: the sender at the head
// of the round robin gets min(CreditPerPull, its pending credit) and goes
// to the tail if it still waits for more. ok is false when no pull is
// due. Call it until ok is false, then sleep until NextEvent.
func (r *RecvCreditPacer) Grant(now rtlmodel.Time) (sender uint32, credit uint64, ok bool) {
	if r.size == 0 || now < r.next {
		return 0, 0, false
	}
	sender = r.ring[r.head]
	r.head++
	if r.head == uint32(len(r.ring)) {
		r.head = 0
	}
	r.size--
	s := &r.senders[sender]
	s.queued = false
	credit = min(uint64(r.p.CreditPerPull), s.pending)
	s.pending -= credit
	s.granted += credit
	r.granted += credit
	r.pulls++
	if s.pending != 0 {
		r.push(sender)
	}
	r.next += r.interval(credit)
	return sender, credit, true
}

// Charge tells the pacer that payload bytes arrived that it did not pull
// for (a speculative first window): the next pull waits for their wire
// time as if the pacer had granted them, so that pulled plus unsolicited
// data stays at the pacing rate and a queue the speculative burst built
// drains instead of standing (E: the model's reading of "the receiver
// paces at its own link rate", FACTS 2.5).
func (r *RecvCreditPacer) Charge(now rtlmodel.Time, payload uint64) {
	if payload == 0 {
		return
	}
	r.next = max(r.next, now) + r.interval(payload)
	r.charged += payload
}

// interval returns the wire time of credit bytes of payload at
// PacerPermille of LineRate, carrying the remainder so that the sum over
// any number of grants is exact to the picosecond.
func (r *RecvCreditPacer) interval(credit uint64) rtlmodel.Time {
	// wire bits · 10^12 ps/s · 1000 / (LineRate · permille)
	hi, lo := bits.Mul64(r.p.WireBytes(credit)*8*1000, 1e12)
	var c uint64
	lo, c = bits.Add64(lo, r.rem, 0)
	hi += c
	q, rem := bits.Div64(hi, lo, r.den)
	r.rem = rem
	return rtlmodel.Time(q)
}

// OnData counts bytes of data from sender arriving at the receiver and
// returns the bytes an ACK should cover now: all unacknowledged bytes
// once they reach AckCoalesceBytes (FACTS 2.5, S [R19]), else 0. The
// count restarts when an ACK is due.
func (r *RecvCreditPacer) OnData(sender uint32, bytes uint64) (ackBytes uint64) {
	s := &r.senders[sender]
	s.unacked += bytes
	if s.unacked < r.p.AckCoalesceBytes {
		return 0
	}
	ackBytes, s.unacked = s.unacked, 0
	return ackBytes
}

// Unacked returns the bytes of sender not yet covered by an ACK and
// clears the count (for an ACK sent for another reason, such as the end
// of a message).
func (r *RecvCreditPacer) Unacked(sender uint32) uint64 {
	u := r.senders[sender].unacked
	r.senders[sender].unacked = 0
	return u
}

// Pending returns the credit sender waits for.
func (r *RecvCreditPacer) Pending(sender uint32) uint64 { return r.senders[sender].pending }

// SenderTotals returns the credit sender requested and was granted.
func (r *RecvCreditPacer) SenderTotals(sender uint32) (requested, granted uint64) {
	s := &r.senders[sender]
	return s.requested, s.granted
}

// Totals returns the credit requested and granted over all senders and
// the pulls issued.
func (r *RecvCreditPacer) Totals() (requested, granted, pulls uint64) {
	return r.requested, r.granted, r.pulls
}

// Charged returns the unsolicited bytes charged to the pacer.
func (r *RecvCreditPacer) Charged() uint64 { return r.charged }

// Waiting returns the number of senders with credit pending.
func (r *RecvCreditPacer) Waiting() int { return int(r.size) }
