package nic400g

import "github.com/fabricmodel/fabricmodel/rtlmodel"

// NSCC is an NSCC-like sender window controller for one flow (FACTS 2.6,
// "NSCC parameterization", S [R20] uet-htsim updateCwndOnAck_NSCC). Each
// ACK gives a queueing-delay sample (RTT − base RTT) and an ECN echo and
// falls in one of four quadrants:
//
//	no ECN, delay ≥ target  fair increase:          inc += FI·acked
//	no ECN, delay < target  proportional increase:  inc += α·acked·(target − delay)
//	                        (fast increase instead, cwnd += acked·FIScale, once a
//	                        window of ACKs has seen delay < FastIncreaseDelay)
//	ECN, delay ≥ target     multiplicative decrease, at most once per base RTT:
//	                        cwnd ← cwnd·max(1 − γ·(avg − target)/avg, 1/2) if avg > target
//	ECN, delay < target     nothing (the path, not the window, is at fault)
//
// The accumulated increase (bytes², Q16 for the proportional part) is
// applied as cwnd += inc/cwnd when AdjustBytes have been ACKed or
// AdjustPeriod has passed since the last adjustment, adding η once per
// period. Quick adapt: once per base RTT + target, if the delay exceeded
// QAThreshold or a loss was seen and the bytes ACKed in that time are
// below MaxWindow >> QAGate, the window drops to those bytes and ECN
// echoes are ignored until the bytes then in flight are ACKed. A NACK
// (trim) shrinks the window by the NACKed bytes unless quick adapt ran.
// The window stays within [MinWindow, MaxWindow]. The base-RTT estimate
// follows the smallest RTT sample; the window bounds stay those of the
// parameters. NSCC has no timers, is not rate-limited and allocates
// nothing.
type NSCC struct {
	p *NSCCParams

	cwnd, inFlight  uint64
	incQ16          uint64 // accumulated increase, bytes² in Q16
	received        uint64 // bytes ACKed since the last adjustment
	achieved        uint64 // bytes ACKed since the quick-adapt window began
	ignore, ignored uint64 // bytes to ignore ECN for after quick adapt, and seen
	fiCount         uint64 // bytes ACKed in a row at low delay
	avgQ16          uint64 // averaged queueing delay, ps in Q48.16
	baseRTT         rtlmodel.Time

	qaEnd, lastAdjust, lastDec rtlmodel.Time
	triggerQA, increasing      bool

	counts NSCCCounts
}

// NSCCCounts are the decisions an NSCC made, by kind (FACTS 2.6, S
// [R20]).
type NSCCCounts struct {
	// Fair, Proportional and Fast count ACKs that took the fair,
	// proportional and fast increase.
	Fair, Proportional, Fast uint64
	// Decrease counts multiplicative decreases, QuickAdapt quick-adapt
	// resets.
	Decrease, QuickAdapt uint64
	// NACK counts NACKs and loss signals; Adjust window adjustments.
	NACK, Adjust uint64
}

// NewNSCC returns a controller at InitialWindow. p must be valid
// (NSCCParams.Validate) and must not change while in use; many flows
// share one.
func NewNSCC(p *NSCCParams) *NSCC {
	n := &NSCC{}
	n.Init(p)
	return n
}

// Init resets n to a new flow with parameters p (for controllers kept by
// value in a slab).
func (n *NSCC) Init(p *NSCCParams) {
	*n = NSCC{p: p, cwnd: p.InitialWindow, baseRTT: p.BaseRTT}
}

// Name returns "nscc".
func (n *NSCC) Name() string { return "nscc" }

// OnSend counts bytes put in flight.
func (n *NSCC) OnSend(_ rtlmodel.Time, bytes uint32) { n.inFlight += uint64(bytes) }

// OnCNP is ignored: NSCC reads ECN from ACKs.
func (n *NSCC) OnCNP(rtlmodel.Time) {}

// Advance does nothing: NSCC has no timers.
func (n *NSCC) Advance(rtlmodel.Time) {}

// NextEvent returns rtlmodel.Forever.
func (n *NSCC) NextEvent() rtlmodel.Time { return rtlmodel.Forever }

// Rate returns 0: NSCC is window-limited only.
func (n *NSCC) Rate() Kbps { return 0 }

// Window returns the congestion window in bytes.
func (n *NSCC) Window() uint64 { return n.cwnd }

// InFlight returns the bytes sent and neither ACKed nor NACKed.
func (n *NSCC) InFlight() uint64 { return n.inFlight }

// AvgDelay returns the averaged queueing delay, rounded down to a ps.
func (n *NSCC) AvgDelay() rtlmodel.Time { return rtlmodel.Time(n.avgQ16 >> 16) }

// BaseRTT returns the base-RTT estimate.
func (n *NSCC) BaseRTT() rtlmodel.Time { return n.baseRTT }

// Counts returns the decisions made so far.
func (n *NSCC) Counts() NSCCCounts { return n.counts }

func (n *NSCC) updateAvg(delay rtlmodel.Time) {
	w := uint64(n.p.DelayEWMA)
	n.avgQ16 = (n.avgQ16*(NSCCQOne-w) + uint64(delay)<<16*w) >> 16
}

// OnAck processes one (possibly coalesced) ACK: ev.AckedBytes, the RTT
// sample ev.RTT (0: none; the averaged delay stands in) and ev.ECE.
func (n *NSCC) OnAck(now rtlmodel.Time, ev *AckEvent) {
	p := n.p
	acked := ev.AckedBytes
	n.inFlight -= min(n.inFlight, acked)
	delay := n.AvgDelay()
	if ev.RTT != 0 {
		n.baseRTT = min(n.baseRTT, ev.RTT)
		delay = ev.RTT - n.baseRTT
		n.updateAvg(delay)
	}
	skip := ev.ECE
	done := n.quickAdapt(now, false, skip, delay, acked)
	n.achieved += acked
	n.received += acked
	if done {
		return
	}
	target := p.TargetQDelay
	switch {
	case !skip && delay >= target:
		n.incQ16 += p.FI * acked << 16
		n.fiCount, n.increasing = 0, false
		n.counts.Fair++
	case !skip:
		if delay < p.FastIncreaseDelay {
			n.fiCount += acked
			if n.fiCount > n.cwnd || n.increasing {
				n.cwnd += acked * uint64(p.FIScale) >> 16
				n.increasing = true
				n.counts.Fast++
				break
			}
		} else {
			n.fiCount = 0
		}
		n.increasing = false
		n.incQ16 += wideMulDiv(p.AlphaQ16*acked, uint64(target-delay), uint64(target))
		n.counts.Proportional++
	case delay >= target:
		n.increasing, n.fiCount = false, 0
		n.decrease(now)
	}
	n.bound()
	if n.received > p.AdjustBytes || now-n.lastAdjust > p.AdjustPeriod {
		n.adjust(now)
	}
	n.bound()
}

// decrease is the multiplicative decrease, at most once per base RTT.
func (n *NSCC) decrease(now rtlmodel.Time) {
	p := n.p
	avg := n.avgQ16 >> 16
	if avg <= uint64(p.TargetQDelay) || now-n.lastDec <= n.baseRTT {
		return
	}
	cut := uint64(p.Gamma) * (avg - uint64(p.TargetQDelay)) / avg // Q0.16
	f := max(NSCCQOne-cut, NSCCQOne/2)
	n.cwnd = n.cwnd * f >> 16
	n.lastDec = now
	n.counts.Decrease++
}

// adjust applies the accumulated increase and, once per period, η.
func (n *NSCC) adjust(now rtlmodel.Time) {
	p := n.p
	n.cwnd += (n.incQ16 >> 16) / n.cwnd
	if now-n.lastAdjust >= p.AdjustPeriod {
		n.cwnd += p.Eta
		n.lastAdjust = now
	}
	n.incQ16, n.received = 0, 0
	n.counts.Adjust++
}

func (n *NSCC) bound() {
	n.cwnd = min(max(n.cwnd, n.p.MinWindow), n.p.MaxWindow)
}

// quickAdapt runs the quick-adapt check and reports whether the ACK (of
// acked bytes) is consumed by it: the window reset, or an ECN echo being
// ignored.
func (n *NSCC) quickAdapt(now rtlmodel.Time, loss, skip bool, delay rtlmodel.Time, acked uint64) bool {
	p := n.p
	done := false
	if n.ignored < n.ignore && skip {
		n.ignored += acked
		done = true
	} else if now > n.qaEnd {
		if n.qaEnd != 0 && (n.triggerQA || loss || delay > p.QAThreshold) && n.achieved < p.MaxWindow>>p.QAGate {
			n.cwnd = max(n.achieved, p.MinWindow)
			n.ignore, n.ignored = n.inFlight, 0
			n.triggerQA = false
			n.counts.QuickAdapt++
			done = true
		}
		n.achieved = 0
		n.qaEnd = now + n.baseRTT + p.TargetQDelay
	}
	if done {
		n.incQ16, n.received = 0, 0
	}
	return done
}

// OnNACK processes a NACK for bytes (a trimmed packet): the bytes leave
// the flight, a delay sample of one network RTT is averaged in (the trim
// says a queue was full, S [R20] updateCwndOnNack_NSCC), quick adapt is
// armed and run; if it does not reset the window, the window shrinks by
// the bytes.
func (n *NSCC) OnNACK(now rtlmodel.Time, bytes uint32) {
	b := uint64(bytes)
	n.inFlight -= min(n.inFlight, b)
	n.updateAvg(n.p.BaseRTT)
	n.triggerQA = true
	n.counts.NACK++
	if n.quickAdapt(now, true, true, 0, b) {
		return
	}
	n.cwnd -= min(n.cwnd, b)
	n.bound()
}

// OnLoss treats any loss signal as a NACK of one MSS (a timeout as the
// loss of one packet: E, the reference gives no separate rule).
func (n *NSCC) OnLoss(now rtlmodel.Time, _ LossKind) { n.OnNACK(now, n.p.MSS) }

var _ CongestionControl = (*NSCC)(nil)
