package nic400g

import "github.com/fabricmodel/fabricmodel/rtlmodel"

// Timely is the TIMELY rate controller of one QP (FACTS 2.3, S
// [R14][R68]): a rate in kb/s driven by RTT samples and their gradient.
// As the artifact does [R14], it updates once per RTT: on the first ACK
// with an RTT sample that acknowledges data beyond what had been sent at
// the previous update, or whose RTT sample is of a packet that left
// after it. The first such ACK only records the RTT. Without losses the
// two are the same ACK. With packets lost, the bytes acknowledged stay
// behind what had been sent until every loss is resent and acknowledged
// (at a flow's tail no ACK can pass it at all), and counted by sequence
// alone the rate would stay where the last update left it, as low as
// MinRate, for every resend. Each update, in fixed point
// (TimelyFracBits):
//
//	d        = rtt − lastRTT                                     (ps, signed)
//	rttDiff ← ⌊((2^16 − α)·rttDiff + α·d) / 2^16⌋                (ps, floor)
//	g        = trunc(rttDiff·2^16 / minRTT)                      (Q16.16)
//	rtt < T_low:   increase
//	rtt > T_high:  c = 2^16 − ⌊β·(2^16 − ⌊T_high·2^16/rtt⌋) / 2^16⌋
//	g ≤ 0:         increase
//	otherwise:     c = max(0, 2^16 − ⌊β·g / 2^16⌋)
//	decrease:      rate ← max(MinRate, ⌊rate·c / 2^16⌋), stage ← 0
//	increase:      rate ← min(LineRate, rate + (stage < HAIThreshold ? δ : HAIStep)), stage++
//
// after which lastRTT takes rtt. ACKs between updates change nothing
// (the artifact's fast react for TIMELY is empty, S [R14]). Timely has no
// timers and is not window-limited; CNPs and losses leave the rate alone.
// Nothing allocates after Init.
type Timely struct {
	p *TimelyParams

	rate     Kbps
	rttDiff  int64 // ps
	lastRTT  rtlmodel.Time
	gradient int64 // Q16.16, of the last update
	incStage uint32

	sent, acked, lastUpdate uint64
	lastUpdateAt            rtlmodel.Time
	started                 bool

	increases, decreases uint64
}

// NewTimely returns a TIMELY controller at line rate, or the error of
// p.Validate. p must not change while the controller uses it (FACTS 2.3).
func NewTimely(p *TimelyParams) (*Timely, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	c := &Timely{}
	c.Init(p)
	return c, nil
}

// Init resets c at line rate with parameters p, which must be valid (FACTS 2.3).
func (c *Timely) Init(p *TimelyParams) { *c = Timely{p: p, rate: p.LineRate} }

// Name returns "timely" (FACTS 2.3).
func (c *Timely) Name() string { return "timely" }

// OnSend does nothing: TIMELY numbers its send sequence in payload
// bytes, as ACKs number what they acknowledge, so the NIC advances it
// with each data packet's payload (onSendPayload) rather than its frame
// bytes (FACTS 2.3).
func (c *Timely) OnSend(rtlmodel.Time, uint32) {}

// onSendPayload advances the send sequence by a data packet's payload
// (payloadSequencer): the once-per-RTT update waits for the ACK of what
// had been sent at the previous one, and a frame count, running ahead by
// every packet's headers, would put each update later than the one
// before (FACTS 2.3).
func (c *Timely) onSendPayload(payload uint32) { c.sent += uint64(payload) }

// OnCNP does nothing: TIMELY reacts to delay (FACTS 2.3).
func (c *Timely) OnCNP(rtlmodel.Time) {}

// OnLoss does nothing: TIMELY as specified (FACTS 2.3) has no loss rule.
func (c *Timely) OnLoss(rtlmodel.Time, LossKind) {}

// Advance does nothing: TIMELY has no timers (FACTS 2.3).
func (c *Timely) Advance(rtlmodel.Time) {}

// NextEvent returns rtlmodel.Forever (FACTS 2.3).
func (c *Timely) NextEvent() rtlmodel.Time { return rtlmodel.Forever }

// Rate returns the current rate in kb/s (FACTS 2.3).
func (c *Timely) Rate() Kbps { return c.rate }

// Window returns 0: TIMELY is not window-limited (FACTS 2.3).
func (c *Timely) Window() uint64 { return 0 }

// RTTDiff returns the smoothed RTT difference in ps (FACTS 2.3).
func (c *Timely) RTTDiff() int64 { return c.rttDiff }

// Gradient returns the normalised gradient of the last update, Q16.16 (FACTS 2.3).
func (c *Timely) Gradient() int64 { return c.gradient }

// IncStage returns the number of consecutive increases (FACTS 2.3).
func (c *Timely) IncStage() uint32 { return c.incStage }

// Counts returns the increases and decreases made (FACTS 2.3).
func (c *Timely) Counts() (increases, decreases uint64) { return c.increases, c.decreases }

// OnAck processes one acknowledgement (see the type comment; FACTS 2.3).
func (c *Timely) OnAck(now rtlmodel.Time, ev *AckEvent) {
	c.acked += ev.AckedBytes
	rtt := ev.RTT
	if rtt == 0 {
		return
	}
	if !c.started {
		c.started, c.lastUpdate, c.lastRTT, c.lastUpdateAt = true, c.sent, rtt, now
		return
	}
	if c.acked <= c.lastUpdate && (rtt > now || now-rtt <= c.lastUpdateAt) {
		return // not a full RTT since the last update, by sequence or by the packet's departure
	}
	p := c.p
	d := int64(rtt) - int64(c.lastRTT)
	c.rttDiff = (int64(TimelyOne-p.Alpha)*c.rttDiff + int64(p.Alpha)*d) >> TimelyFracBits
	c.gradient = (c.rttDiff << TimelyFracBits) / int64(p.MinRTT)
	switch {
	case rtt < p.TLow:
		c.increase()
	case rtt > p.THigh:
		frac := uint64(p.THigh) << TimelyFracBits / uint64(rtt)
		c.decrease(TimelyOne - uint64(p.Beta)*(TimelyOne-frac)>>TimelyFracBits)
	case c.gradient <= 0:
		c.increase()
	default:
		m := ccMulDiv(uint64(p.Beta), uint64(c.gradient), TimelyOne)
		c.decrease(TimelyOne - min(m, TimelyOne))
	}
	c.lastUpdate = max(c.lastUpdate, c.sent)
	c.lastRTT, c.lastUpdateAt = rtt, now
}

func (c *Timely) increase() {
	p := c.p
	step := p.AddStep
	if c.incStage >= p.HAIThreshold {
		step = p.HAIStep
	}
	c.rate = min(c.rate+step, p.LineRate)
	c.incStage++
	c.increases++
}

// decrease multiplies the rate by the Q0.16 factor f.
func (c *Timely) decrease(f uint64) {
	c.rate = max(c.p.MinRate, Kbps(uint64(c.rate)*f>>TimelyFracBits))
	c.incStage = 0
	c.decreases++
}

var _ CongestionControl = (*Timely)(nil)
