package nic400g

import (
	"math"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// DefaultEQDSBaseRTT is the unloaded round trip the EQDS speculative
// window and largest window are sized from when Config.EQDSBaseRTT is
// zero: 3 µs, a NIC-switch-NIC round trip with 4 KB frames and some
// margin (E: about 2 µs measured through one switch, fabric tests).
const DefaultEQDSBaseRTT = 3 * rtlmodel.Microsecond

// stackModel is the analytical framing of a header stack (FACTS 1.4).
func stackModel(s HeaderStack) packet.Stack {
	switch s {
	case RoCEv2IPv6:
		return packet.StackRoCEv2IPv6
	case LeanNative:
		return packet.StackNativeIB
	case UET:
		return packet.StackUETStandard
	}
	return packet.StackRoCEv2IPv4
}

// eqdsParams are the EQDS parameters of a NIC: the htsim defaults
// (DefaultEQDSParams, FACTS 2.5) at the port's rate, with the MSS and
// the credit per pull set to the NIC's MTU and the per-packet header to
// the stack's real overhead on the wire, so that pulls pace the data
// exactly to the receiver's link.
func eqdsParams(cfg *Config) (EQDSParams, error) {
	rate := cfg.Wire.Lanes.MACRate().BitsPerSecond()
	rtt := cfg.EQDSBaseRTT
	if rtt == 0 {
		rtt = DefaultEQDSBaseRTT
	}
	p := DefaultEQDSParams(rate.Num()/rate.Den(), rtt)
	p.MSS, p.CreditPerPull = uint32(cfg.MTU), uint32(cfg.MTU)
	p.HeaderBytes = uint32(stackModel(cfg.Stack).Overhead())
	return p, p.Validate()
}

// eqdsMaySend reports whether an EQDS sender may send its next packet: a
// new packet or the retransmission of a trimmed one needs credit (the
// speculative allowance or pulled credit) and room in the window; a
// retransmission for a packet lost outright (SACK hole, timeout, the
// hole a go-back-N sequence NAK names) goes without, since the receiver
// never saw it and cannot pull for it. A new packet that carries a
// credit request (a message's first, or the first after speculation
// ended) may borrow the credit it lacks when none asked for is still to
// come (EQDSSender.CanStart): otherwise the request would wait for
// credit that only the request itself can bring.
func (n *NIC) eqdsMaySend(q *qpState) bool {
	var b uint32
	if q.retxQ > 0 {
		p := &q.unacked[q.firstPending()]
		if !p.trimmed {
			return true
		}
		b = p.payload
	} else {
		m := q.segMsg()
		b = uint32(min(uint64(n.cfg.MTU), m.wr.Bytes-m.sentTo))
		if m.sentTo == 0 || q.eq.Reclaiming() {
			return q.eq.CanStart(b)
		}
	}
	return q.eq.CanSend(b)
}

// firstPending returns the index of the first packet queued for
// retransmission (retxQ > 0).
func (q *qpState) firstPending() int {
	for i := range q.unacked {
		if q.unacked[i].pending {
			return i
		}
	}
	panic("nic400g: retransmission count without a pending packet")
}

// eqdsAsk computes the credit request a packet carries (Meta.Credit): the
// first packet of a message asks for the bytes of the message the
// speculative allowance will not cover (what of it no earlier message or
// read job claimed, EQDSSender.ClaimSpeculative), and a packet's first
// transmission asks again for allowance the sender gave up when
// speculation ended. The request is fixed with the packet's first
// transmission and carried again by its retransmissions, and the
// receiver takes it from the copy it accepts, never from a duplicate
// (eqdsOnData): so each request is taken once, whether the original was
// lost or only overtaken (a go-back-N rewind or a timeout resends
// packets the receiver may already hold). A request added to a
// retransmission would be lost with a duplicate.
func (q *qpState) eqdsAsk(p *sentPkt, m *message, retx bool) {
	if retx {
		return
	}
	var ask uint64
	if p.offset == 0 && p.retx == 0 {
		ask = m.wr.Bytes - q.eq.ClaimSpeculative(m.wr.Bytes)
	}
	ask += q.eq.TakeReclaim()
	if ask > math.MaxUint32 {
		// more than a request field holds (a message near 4 GiB with
		// reclaimed credit to ask for again): the rest rides the next
		// new packets
		q.eq.GiveBack(ask - math.MaxUint32)
		ask = math.MaxUint32
	}
	p.ask = uint32(ask)
	q.eq.Ask(ask)
}

// eqdsOnData is the receiver's side of a data packet (or a trimmed
// header) under EQDS: a credit request is queued with the pacer, the
// payload of a trimmed packet is pulled for again, and unsolicited
// (speculative) payload is charged to the pacer. fresh says the packet
// is new in the PSN window (requests on duplicates were taken before).
func (n *NIC) eqdsOnData(q *qpState, d *packet.Desc, now rtlmodel.Time, fresh bool) {
	if d.Meta.Credit != 0 && (fresh || d.Trimmed) {
		n.pacer.Request(now, q.id, uint64(d.Meta.Credit))
	}
	switch {
	case d.Trimmed:
		n.pacer.Request(now, q.id, uint64(d.Meta.Payload))
	case fresh && d.Meta.Flags&flagSpec != 0:
		n.pacer.Charge(now, uint64(d.Meta.Payload))
	}
}

// eqdsOnDropped is the receiver's side of a whole data packet it drops
// for arriving out of order under EQDS (go-back-N) or beyond its reorder
// buffer (selective repeat, Config.ReorderPackets): it saw the packet and
// keeps only its header, as it keeps a trimmed one's, so it does as it
// does for a trimmed packet: it takes the packet's credit request, pulls
// for its payload and NACKs it by PSN, so that the sender resends it
// against that pull. The NACK is a trim NACK flagged as a sequence error
// (flagNAK), the counterpart of UET's ROD_OOO NACK, whose action is to
// resend that PSN (FACTS 2.6). Without it the sender, told of the hole
// alone, resent everything behind it unsolicited.
func (n *NIC) eqdsOnDropped(q *qpState, d *packet.Desc, now rtlmodel.Time) {
	if d.Meta.Credit != 0 {
		n.pacer.Request(now, q.id, uint64(d.Meta.Credit))
	}
	n.pacer.Request(now, q.id, uint64(d.Meta.Payload))
	n.sendCtrl(q, now, flagTrimNAK|flagNAK, d.Meta.PSN, 0)
}

// runPacer sends the pulls the receiver's pacer has due now.
func (n *NIC) runPacer(now rtlmodel.Time) {
	for {
		id, credit, ok := n.pacer.Grant(now)
		if !ok {
			return
		}
		q := n.qps[id]
		if q == nil {
			n.st.stalePulls.Inc()
			continue
		}
		n.setPullCredit(n.sendCtrl(q, now, flagPull, 0, 0), uint32(credit))
	}
}

// rxPull gives a sender the credit of a pull.
func (n *NIC) rxPull(d *packet.Desc, now rtlmodel.Time) {
	n.st.pullRecv.Inc()
	q := n.qps[d.Meta.DestQP]
	if q == nil || q.eq == nil {
		n.st.staleAcks.Inc()
		return
	}
	q.eq.OnPull(now, uint64(d.Meta.Credit))
	n.reconsider(q, now)
}

// EQDSPacer returns the receiver's credit pacer (nil unless Config.CC is
// "eqds").
func (n *NIC) EQDSPacer() *RecvCreditPacer { return n.pacer }

// eqdsRetime sets q's retransmission timer after a trim NACK or an ACK
// that moved it on: it runs only for packets in flight, neither
// acknowledged nor waiting to be resent. A trimmed packet's NACK is news
// from the receiver, which has its header and pulls for its payload: the
// packet waits for that pull and is no longer timed, as htsim's EQDS
// sender takes a NACKed packet out of the send times its timer runs on
// (S [R19]). The timer runs on for the oldest packet still in flight, no
// earlier than it was due, and stops when none is; the retransmission of
// a pending packet starts it again (sendOne). A pull lost on the way is
// the EQDS sender's timer's to recover (EQDSSender.Advance), and a lost
// NACK leaves its packet in flight and timed.
func (n *NIC) eqdsRetime(q *qpState) {
	oldest := rtlmodel.Forever
	for i := range q.unacked {
		if p := &q.unacked[i]; !p.pending && !p.sacked {
			oldest = min(oldest, p.sentAt)
		}
	}
	if oldest == rtlmodel.Forever {
		q.rtoAt = 0
		return
	}
	q.rtoAt = max(q.rtoAt, oldest+n.cfg.RTO)
}

// eqdsResendHole is an EQDS sender's answer to a sequence NAK, sent by
// the receiver when a packet after the hole at the cumulative ACK arrived
// whole and was dropped (out of order under go-back-N, beyond the reorder
// buffer under selective repeat), the packet that left at sent. Every
// packet behind the hole the receiver saw it holds (in the reorder
// buffer) or NACKs and pulls for one by one (eqdsOnDropped, rxTrimNAK),
// and a trimmed hole too: the sender
// resends only the hole itself, and only when it is still taken to be in
// flight and left no later than that packet, so lost outright; it goes
// without credit, as the receiver cannot pull for what it never saw
// (eqdsMaySend). A hole queued already, or resent since, is left alone.
func (n *NIC) eqdsResendHole(q *qpState, sent rtlmodel.Time) {
	if len(q.unacked) == 0 {
		return
	}
	p := &q.unacked[0]
	if p.pending || p.sacked || p.sentAt > sent {
		return
	}
	q.markPending(p)
	q.eq.OnRewind(n.h.Now(), uint64(p.payload))
}
