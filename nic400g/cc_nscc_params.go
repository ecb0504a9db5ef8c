package nic400g

import (
	"fmt"
	"math/bits"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// NSCCQOne is 1.0 in the Q16.16 (and Q0.16) fixed point of the NSCC
// scaling factors, γ and the delay EWMA weight.
const NSCCQOne = 1 << 16

// NSCC reference network of the UEC reference simulator: 100 Gb/s and a
// 12 µs RTT (FACTS 2.6, S [R20] initNsccParams).
const (
	NSCCRefRate uint64        = 100e9
	NSCCRefRTT  rtlmodel.Time = 12 * rtlmodel.Microsecond
)

// NSCCParams are the parameters of the NSCC-like window controller
// (FACTS 2.6, "NSCC parameterization", S [R20] uet-htsim initNsccParams).
// The scaling factors are Q16.16: a = BDP/BDP_ref and b =
// TargetQDelay/RTT_ref with BDP_ref = 100 Gb/s·12 µs = 150,000 B. The
// increase constants are whole bytes derived from them; α is carried in
// Q16 bytes; γ and the EWMA weight are Q0.16; delays are picoseconds, the
// averaged delay Q48.16 ps; windows and byte counts are 64-bit bytes, and
// the increase accumulated between adjustments is bytes² in Q16 (64 bits:
// FI < 2^24 B and at most 2^24 B ACKed between adjustments keep it below
// 2^64).
type NSCCParams struct {
	// LineRate is the NIC link rate in bits per second.
	LineRate uint64
	// BaseRTT is the unloaded network RTT, the initial base-RTT estimate
	// (lowered by smaller samples), the adjust period and the base of BDP
	// (FACTS 2.6, S [R20]).
	BaseRTT rtlmodel.Time
	// MSS is the payload per packet: 4096 B (FACTS 2.5, S [R19][R20]).
	MSS uint32
	// MTU is MSS plus the 64 B header of the htsim models (FACTS 2.5, S
	// [R19]), the minimum window (FACTS 2.6, S [R20]) and the unit of the
	// adjust byte threshold.
	MTU uint32
	// TargetQDelay is the target queueing delay: 0.75·RTT with trimming,
	// 1·RTT without (FACTS 2.6, S [R20]).
	TargetQDelay rtlmodel.Time
	// QAThreshold is the queueing delay above which quick adapt runs: 4 ×
	// target (FACTS 2.6, S [R20]).
	QAThreshold rtlmodel.Time
	// QAGate: quick adapt runs only if the bytes acknowledged in the last
	// window are below MaxWindow >> QAGate; gate 2^3 (FACTS 2.6, S [R20]).
	QAGate uint
	// ScaleA is a = BDP/BDP_ref in Q16.16 (FACTS 2.6, S [R20]).
	ScaleA uint32
	// ScaleB is b = TargetQDelay/RTT_ref in Q16.16 (FACTS 2.6, S [R20]).
	ScaleB uint32
	// AlphaQ16 is 4·MSS·a·b in Q16 bytes; the proportional increase of
	// one ACK is α·acked·(target − delay) with α = 4·MSS·a·b/target
	// (FACTS 2.6, S [R20]).
	AlphaQ16 uint64
	// FI is the fair increase 5·MSS·a in bytes (FACTS 2.6, S [R20]).
	FI uint64
	// Eta is the per-period increase η = 0.15·MSS·a in bytes (FACTS 2.6,
	// S [R20]).
	Eta uint64
	// FIScale is the fast-increase gain 0.25·a in Q16.16 (S [R20]
	// _fi_scale).
	FIScale uint32
	// FastIncreaseDelay: below this queueing delay the window grows fast,
	// 1 µs (S [R20] fast_increase).
	FastIncreaseDelay rtlmodel.Time
	// Gamma is the multiplicative-decrease factor γ = 0.8 in Q0.16:
	// 52429/65536 = 0.800003 (FACTS 2.6, S [R20]).
	Gamma uint32
	// DelayEWMA is the weight of a new delay sample, 0.0125 in Q0.16:
	// 819/65536 = 0.012497 (FACTS 2.6, S [R20]).
	DelayEWMA uint32
	// AdjustPeriod is the longest time between window adjustments, 1 RTT
	// (FACTS 2.6, S [R20]); η is added once per period.
	AdjustPeriod rtlmodel.Time
	// AdjustBytes is the ACKed-byte count that also triggers an
	// adjustment, 8 MTU (FACTS 2.6, S [R20]).
	AdjustBytes uint64
	// MaxWindow is 1.5 × BDP (FACTS 2.6, S [R20]).
	MaxWindow uint64
	// MinWindow is 1 MTU (FACTS 2.6, S [R20]).
	MinWindow uint64
	// InitialWindow is the window of a new flow: MaxWindow, as htsim's
	// initNscc does when given no window (S [R20]).
	InitialWindow uint64
}

// DefaultNSCCParams returns the uet-htsim NSCC parameterisation (FACTS
// 2.6, S [R20]) for a NIC of lineRate bits per second on a network with
// the given unloaded RTT, with or without trimming in the switches.
func DefaultNSCCParams(lineRate uint64, baseRTT rtlmodel.Time, trimming bool) NSCCParams {
	p := NSCCParams{
		LineRate:          lineRate,
		BaseRTT:           baseRTT,
		MSS:               4096,
		MTU:               4096 + 64,
		QAGate:            3,
		FastIncreaseDelay: rtlmodel.Microsecond,
		Gamma:             52429,
		DelayEWMA:         819,
		AdjustPeriod:      baseRTT,
	}
	p.TargetQDelay = baseRTT
	if trimming {
		p.TargetQDelay = baseRTT * 3 / 4
	}
	p.QAThreshold = 4 * p.TargetQDelay
	bdp := wideMulDiv(lineRate, uint64(baseRTT), 8e12)
	refBDP := wideMulDiv(NSCCRefRate, uint64(NSCCRefRTT), 8e12)
	p.ScaleA = uint32(wideMulDiv(bdp, NSCCQOne, refBDP))
	p.ScaleB = uint32(wideMulDiv(uint64(p.TargetQDelay), NSCCQOne, uint64(NSCCRefRTT)))
	mss := uint64(p.MSS)
	p.AlphaQ16 = 4 * mss * uint64(p.ScaleA) * uint64(p.ScaleB) >> 16
	p.FI = 5 * mss * uint64(p.ScaleA) >> 16
	p.Eta = 15 * mss * uint64(p.ScaleA) / (100 * NSCCQOne)
	p.FIScale = p.ScaleA / 4
	p.AdjustBytes = 8 * uint64(p.MTU)
	p.MaxWindow = bdp * 3 / 2
	p.MinWindow = uint64(p.MTU)
	p.InitialWindow = p.MaxWindow
	return p
}

// BDP returns LineRate·BaseRTT in bytes, rounded down.
func (p *NSCCParams) BDP() uint64 { return wideMulDiv(p.LineRate, uint64(p.BaseRTT), 8e12) }

// Validate names the first field that is out of range.
func (p *NSCCParams) Validate() error {
	switch {
	case p.LineRate == 0:
		return fmt.Errorf("NSCCParams.LineRate: 0")
	case p.BaseRTT == 0 || p.BaseRTT > rtlmodel.Second:
		return fmt.Errorf("NSCCParams.BaseRTT: %v outside (0, 1 s]", p.BaseRTT)
	case p.MSS == 0 || p.MTU < p.MSS:
		return fmt.Errorf("NSCCParams.MTU: %d must be at least MSS %d > 0", p.MTU, p.MSS)
	case p.TargetQDelay == 0 || p.TargetQDelay > rtlmodel.Second:
		return fmt.Errorf("NSCCParams.TargetQDelay: %v outside (0, 1 s]", p.TargetQDelay)
	case p.QAThreshold < p.TargetQDelay:
		return fmt.Errorf("NSCCParams.QAThreshold: %v below TargetQDelay %v", p.QAThreshold, p.TargetQDelay)
	case p.QAGate > 32:
		return fmt.Errorf("NSCCParams.QAGate: %d above 32", p.QAGate)
	case p.Gamma == 0 || p.Gamma > NSCCQOne:
		return fmt.Errorf("NSCCParams.Gamma: %d outside (0, 65536]", p.Gamma)
	case p.DelayEWMA == 0 || p.DelayEWMA > NSCCQOne:
		return fmt.Errorf("NSCCParams.DelayEWMA: %d outside (0, 65536]", p.DelayEWMA)
	case p.AdjustPeriod == 0:
		return fmt.Errorf("NSCCParams.AdjustPeriod: 0")
	case p.AdjustBytes == 0:
		return fmt.Errorf("NSCCParams.AdjustBytes: 0")
	case p.MinWindow == 0:
		return fmt.Errorf("NSCCParams.MinWindow: 0")
	case p.MaxWindow < p.MinWindow || p.MaxWindow >= 1<<40:
		return fmt.Errorf("NSCCParams.MaxWindow: %d outside [MinWindow %d, 2^40)", p.MaxWindow, p.MinWindow)
	case p.InitialWindow < p.MinWindow || p.InitialWindow > p.MaxWindow:
		return fmt.Errorf("NSCCParams.InitialWindow: %d outside [%d, %d]", p.InitialWindow, p.MinWindow, p.MaxWindow)
	case p.FI >= 1<<24:
		return fmt.Errorf("NSCCParams.FI: %d B at or above 2^24", p.FI)
	case p.Eta >= 1<<24:
		return fmt.Errorf("NSCCParams.Eta: %d B at or above 2^24", p.Eta)
	case p.AlphaQ16 >= 1<<40:
		return fmt.Errorf("NSCCParams.AlphaQ16: %d at or above 2^40", p.AlphaQ16)
	}
	return nil
}

// wideMulDiv returns ⌊a·b/c⌋ with a 128-bit product; the quotient must
// fit 64 bits (c > 0).
func wideMulDiv(a, b, c uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	if hi >= c {
		return ^uint64(0)
	}
	q, _ := bits.Div64(hi, lo, c)
	return q
}
