package nic400g

import "github.com/fabricmodel/fabricmodel/rtlmodel"

// EQDSSender is the sender side of the receiver-credit scheme in the style
// of EQDS (FACTS 2.5, htsim S [R19]) behind CongestionControl. A new flow
// may send SpeculativeBytes unsolicited (the speculative first window)
// until the first pull or NACK arrives, which ends speculation as htsim's
// stopSpeculating does (S [R19]); the allowance then left is given up and
// must be asked for again (TakeReclaim). From then on it sends only
// against credit the receiver grants, in pulls (OnPull) or piggy-backed
// on ACKs (AckEvent.Credit). A trimmed packet's
// NACK (OnNACK, or OnLoss with LossTrimmed) takes its bytes out of flight
// and queues them for retransmission; the receiver, having seen the
// trimmed header, pulls for them, and the bytes of the next sends count
// as retransmissions first. A retransmission timeout (at least MinRTO,
// RFC 6298-style estimate from the RTT samples, doubled per expiry) moves
// everything in flight to the retransmission queue. A sender with nothing
// in flight and credit still owed runs the same timer for its pulls,
// restarted by each one: a pull lost in the fabric (a control frame a
// full buffer dropped) is never sent again, so when the timer expires the
// credit owed is presumed granted (Presumed) and the sender goes on.
//
// Accounting, all in bytes: speculative allowance + credit granted +
// credit presumed = credit spent + credit held + allowance given up; sent = in flight +
// ACKed + moved to retransmission. The owner keeps the sender's backlog and asks the
// receiver for credit for it (RecvCreditPacer.Request), net of the
// speculative window. No allocation after Init.
type EQDSSender struct {
	p *EQDSParams

	spec, credit  uint64 // speculative allowance left, granted credit held
	claimed       uint64 // allowance credit requests left out (ClaimSpeculative)
	debt          uint64 // bytes sent beyond the allowance by a message's first packet (CanStart)
	asked         uint64 // credit asked for: requests carried, trimmed bytes to be pulled
	reclaim       uint64 // allowance given up and not yet asked for again
	inFlight, rtx uint64 // bytes in flight, bytes waiting for retransmission
	window        uint64 // min(MaxWindow, MaxInFlightPackets·MSS)

	srtt, rttvar rtlmodel.Time
	backoff      uint
	rtoAt        rtlmodel.Time

	counts EQDSSenderCounts
}

// EQDSSenderCounts are the byte and event counters of an EQDSSender.
type EQDSSenderCounts struct {
	// Granted is the credit received from the receiver; Speculative the
	// first-window allowance; Spent the credit and allowance used;
	// Forfeited the allowance given up when speculation ended.
	Granted, Speculative, Spent, Forfeited uint64
	// Sent is all bytes sent, Retransmitted the part that were
	// retransmissions, Acked the bytes ACKed.
	Sent, Retransmitted, Acked uint64
	// Trimmed is the bytes NACKed for a pull: trimmed by a switch, or, to
	// a go-back-N receiver, dropped out of order (the NIC's counters
	// trim_nack_received and nak_received tell the two apart); Trims and
	// Timeouts count the events.
	Trimmed, Trims, Timeouts uint64
	// Presumed is the credit owed that the sender took as granted when no
	// pull came for a whole timeout (pulls lost); PullTimeouts counts
	// those expiries.
	Presumed, PullTimeouts uint64
}

// NewEQDSSender returns a sender with its speculative window. p must be
// valid (EQDSParams.Validate) and must not change while in use.
func NewEQDSSender(p *EQDSParams) *EQDSSender {
	s := &EQDSSender{}
	s.Init(p)
	return s
}

// Init resets s to a new flow with parameters p.
func (s *EQDSSender) Init(p *EQDSParams) {
	*s = EQDSSender{
		p:      p,
		spec:   p.SpeculativeBytes,
		window: min(p.MaxWindow, uint64(p.MaxInFlightPackets)*uint64(p.MSS)),
		rtoAt:  rtlmodel.Forever,
	}
	s.counts.Speculative = p.SpeculativeBytes
}

// Name returns "eqds".
func (s *EQDSSender) Name() string { return "eqds" }

// Speculating reports whether the speculative allowance is not used up.
func (s *EQDSSender) Speculating() bool { return s.spec != 0 }

// TakeReclaim returns the speculative allowance given up since the last
// call, which the owner asks the receiver for as credit (as part of the
// backlog it announces), and clears it.
func (s *EQDSSender) TakeReclaim() uint64 {
	r := s.reclaim
	s.reclaim = 0
	return r
}

func (s *EQDSSender) stopSpeculating() {
	if s.spec != 0 {
		s.counts.Forfeited += s.spec
		s.reclaim += s.spec
		s.spec = 0
	}
}

// GiveBack returns bytes taken with TakeReclaim (or any backlog) that a
// packet's request could not hold, to be asked for by the next one.
func (s *EQDSSender) GiveBack(bytes uint64) { s.reclaim += bytes }

// Reclaiming reports whether allowance given up is waiting to be asked
// for again (TakeReclaim).
func (s *EQDSSender) Reclaiming() bool { return s.reclaim != 0 }

// Speculative returns the speculative allowance left.
func (s *EQDSSender) Speculative() uint64 { return s.spec }

// Credit returns the bytes the sender may send now before the window
// cap: speculative allowance left plus granted credit held.
func (s *EQDSSender) Credit() uint64 { return s.spec + s.credit }

// InFlight returns the bytes sent and not yet ACKed, NACKed or timed out.
func (s *EQDSSender) InFlight() uint64 { return s.inFlight }

// RetransmitPending returns the bytes waiting for retransmission.
func (s *EQDSSender) RetransmitPending() uint64 { return s.rtx }

// CanSend reports whether a packet of bytes may leave now: enough credit
// and room in the window.
func (s *EQDSSender) CanSend(bytes uint32) bool {
	b := uint64(bytes)
	return s.spec+s.credit >= b && s.inFlight+b <= s.window
}

// CanStart reports whether the first packet of a message, of bytes, may
// leave now. It carries the message's credit request, so when no credit
// asked for is still to come (Owed is 0) it may leave without the credit
// it needs, borrowed against the credit it asks for and repaid from the
// first credit granted: a sender whose allowance and credit fell below a
// packet after earlier messages on the queue pair would otherwise wait
// for a pull that nobody asked for (E: the model's reading of S [R19],
// whose flows ask for credit when they start).
func (s *EQDSSender) CanStart(bytes uint32) bool {
	return s.CanSend(bytes) || s.Owed() == 0 && s.inFlight+uint64(bytes) <= s.window
}

// ClaimSpeculative returns how much of bytes a credit request may leave
// out, to be sent from the speculative allowance, and claims it: while
// speculating, what of the allowance no earlier claim took. Claims never
// add up to more than the allowance, so requests that each leave out
// what the allowance covers ask, with the allowance given up when
// speculation ends (TakeReclaim), for at least every byte sent beyond
// it: a message's first packet, or a READ responder's job, that left
// out the allowance left (Speculative) whatever earlier ones had left out
// asked for too little when the allowance was shared.
func (s *EQDSSender) ClaimSpeculative(bytes uint64) uint64 {
	if s.spec == 0 {
		return 0
	}
	c := min(bytes, s.p.SpeculativeBytes-min(s.p.SpeculativeBytes, s.claimed))
	s.claimed += c
	return c
}

// CanCarryRequest reports whether a packet of bytes that carries a
// credit request may leave now without the credit it needs: room in the
// window is enough, whatever credit is owed, since what is owed may be
// the very request the packet carries, lost with an earlier copy of it
// (a READ response sent again, nic_read_eqds.go).
func (s *EQDSSender) CanCarryRequest(bytes uint32) bool {
	return s.inFlight+uint64(bytes) <= s.window
}

// Ask records a credit request leaving with a packet (its first
// transmission).
func (s *EQDSSender) Ask(bytes uint64) { s.asked += bytes }

// Owed returns the credit asked for and not yet granted (or presumed
// granted after a pull timeout).
func (s *EQDSSender) Owed() uint64 {
	return s.asked - min(s.asked, s.counts.Granted+s.counts.Presumed)
}

// Window returns the bytes the sender may have in flight now: in flight
// plus credit, capped at the window.
func (s *EQDSSender) Window() uint64 { return min(s.inFlight+s.spec+s.credit, s.window) }

// Rate returns 0: the receiver paces, the sender is not rate-limited.
func (s *EQDSSender) Rate() Kbps { return 0 }

// Counts returns the counters.
func (s *EQDSSender) Counts() EQDSSenderCounts { return s.counts }

// RTO returns the current retransmission timeout.
func (s *EQDSSender) RTO() rtlmodel.Time {
	rto := s.p.MinRTO
	if s.srtt != 0 {
		rto = max(rto, s.srtt+4*s.rttvar)
	}
	return rto << s.backoff
}

// OnSend spends credit for bytes leaving at now: the speculative
// allowance first, then granted credit; bytes count as retransmissions
// while any are pending. Sending without credit (see CanSend) spends
// what there is; the shortfall shows as Sent − Spent.
func (s *EQDSSender) OnSend(now rtlmodel.Time, bytes uint32) {
	b := uint64(bytes)
	fromSpec := min(s.spec, b)
	s.spec -= fromSpec
	fromCredit := min(s.credit, b-fromSpec)
	s.credit -= fromCredit
	s.debt += b - fromSpec - fromCredit
	s.counts.Spent += fromSpec + fromCredit
	r := min(s.rtx, b)
	s.rtx -= r
	s.counts.Retransmitted += r
	s.counts.Sent += b
	s.inFlight += b
	if s.rtoAt == rtlmodel.Forever {
		s.rtoAt = now + s.RTO()
	}
}

// OnSendHeld takes bytes just sent (OnSend) out of flight again: the
// receiver holds them already, so no acknowledgement will take them out.
func (s *EQDSSender) OnSendHeld(bytes uint64) { s.inFlight -= min(s.inFlight, bytes) }

// OnSendUnpaid records bytes leaving at now that spend no credit: the
// retransmission of a packet lost outright, which the receiver cannot
// pull for since it never saw it. They count as sent and in flight.
func (s *EQDSSender) OnSendUnpaid(now rtlmodel.Time, bytes uint32) {
	b := uint64(bytes)
	s.counts.Sent += b
	s.counts.Retransmitted += b
	s.inFlight += b
	if s.rtoAt == rtlmodel.Forever {
		s.rtoAt = now + s.RTO()
	}
}

// OnPull adds credit granted by the receiver in a pull, less what repays
// bytes sent beyond the allowance, and ends speculation.
func (s *EQDSSender) OnPull(now rtlmodel.Time, credit uint64) {
	s.stopSpeculating()
	s.counts.Granted += credit
	s.take(credit)
	if s.inFlight == 0 {
		s.restart(now) // the pull timer starts again
	}
}

// take adds credit, less what repays bytes sent beyond the allowance.
func (s *EQDSSender) take(credit uint64) {
	repay := min(s.debt, credit)
	s.debt -= repay
	s.counts.Spent += repay
	s.credit += credit - repay
}

// OnAck takes ev.AckedBytes out of flight, adds ev.Credit, feeds the RTT
// sample to the RTO estimate and restarts the timer.
func (s *EQDSSender) OnAck(now rtlmodel.Time, ev *AckEvent) {
	if ev.Credit != 0 {
		s.OnPull(now, ev.Credit)
	}
	a := min(s.inFlight, ev.AckedBytes)
	s.inFlight -= a
	s.counts.Acked += a
	if r := ev.RTT; r != 0 {
		if s.srtt == 0 {
			s.srtt, s.rttvar = r, r/2
		} else {
			d := max(s.srtt, r) - min(s.srtt, r)
			s.rttvar = s.rttvar - s.rttvar/4 + d/4
			s.srtt = s.srtt - s.srtt/8 + r/8
		}
	}
	if a != 0 {
		s.backoff = 0
	}
	s.restart(now)
}

// restart runs the timer from now: for the bytes in flight, or, with
// none, for the pulls of credit still owed; with neither it stops.
func (s *EQDSSender) restart(now rtlmodel.Time) {
	if s.inFlight == 0 && s.Owed() == 0 {
		s.rtoAt = rtlmodel.Forever
		return
	}
	s.rtoAt = now + s.RTO()
}

// OnNACK processes the NACK of a packet of bytes payload that the
// receiver pulls for, trimmed or (go-back-N) dropped out of order: they
// leave the flight and wait for retransmission against the credit the
// receiver will pull with; speculation ends.
func (s *EQDSSender) OnNACK(now rtlmodel.Time, bytes uint32) {
	s.stopSpeculating()
	s.asked += uint64(bytes) // the receiver pulls for the trimmed payload
	b := min(s.inFlight, uint64(bytes))
	s.inFlight -= b
	s.rtx += b
	s.counts.Trimmed += b
	s.counts.Trims++
	s.restart(now)
}

// OnLoss handles a loss signal: a trim as OnNACK of one MSS, a timeout
// as an expiry of the timer at now, and a NAK for a sequence error as the
// end of speculation only: the packets it names were dropped whole, the
// receiver pulls for none of them, and the owner takes those it will
// resend out of flight (OnRewind).
func (s *EQDSSender) OnLoss(now rtlmodel.Time, kind LossKind) {
	switch kind {
	case LossTimeout:
		s.timeout(now)
	case LossTrimmed:
		s.OnNACK(now, s.p.MSS)
	default:
		s.stopSpeculating()
	}
}

// OnRewind takes bytes out of flight: packets sent and then lost whole
// (a go-back-N rewind), to be resent without credit (OnSendUnpaid), which
// puts them in flight again.
func (s *EQDSSender) OnRewind(now rtlmodel.Time, bytes uint64) {
	s.inFlight -= min(s.inFlight, bytes)
	s.restart(now)
}

// OnCNP is ignored: EQDS takes no CNPs.
func (s *EQDSSender) OnCNP(rtlmodel.Time) {}

// Advance runs the retransmission timer up to now.
func (s *EQDSSender) Advance(now rtlmodel.Time) {
	if s.rtoAt <= now {
		s.timeout(now)
	}
}

func (s *EQDSSender) timeout(now rtlmodel.Time) {
	s.backoff = min(s.backoff+1, 6)
	s.rtoAt = rtlmodel.Forever
	if s.inFlight == 0 {
		// no pull for a whole timeout with credit owed: the pulls were
		// lost, and nothing would send them again
		if owed := s.Owed(); owed != 0 {
			s.counts.Presumed += owed
			s.counts.PullTimeouts++
			s.take(owed)
		}
		return
	}
	s.rtx += s.inFlight
	s.inFlight = 0
	s.counts.Timeouts++
	if s.Owed() != 0 {
		s.rtoAt = now + s.RTO() // on for the pulls still owed
	}
}

// NextEvent returns the retransmission timer's expiry, or Forever.
func (s *EQDSSender) NextEvent() rtlmodel.Time { return s.rtoAt }

var _ CongestionControl = (*EQDSSender)(nil)
