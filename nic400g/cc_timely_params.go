package nic400g

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// TimelyFracBits is the number of fraction bits of the TIMELY gains α and
// β and of the per-update multiplier: unsigned Q0.16, 1.0 = 65536 (FACTS
// 2.3; the width is this model's choice, E). The normalised gradient is
// signed Q16.16 in 64 bits.
const TimelyFracBits = 16

// TimelyOne is 1.0 in Q0.16 (FACTS 2.3).
const TimelyOne = 1 << TimelyFracBits

// TimelyParams are the parameters of the TIMELY rate controller (FACTS
// 2.3). Rates are kb/s, times picoseconds, gains Q0.16.
type TimelyParams struct {
	// LineRate caps the rate and is the starting rate. Unit kb/s.
	LineRate Kbps
	// MinRate is the floor of a decrease: the artifact's MIN_RATE
	// 1000 Mb/s (S [R13]). Unit kb/s.
	MinRate Kbps
	// Alpha is the EWMA weight of the newest RTT difference, Q0.16: α =
	// 0.875 = 57344 (S [R14][R68]), applied as in the artifact:
	// rttDiff ← (1−α)·rttDiff + α·(rtt − lastRTT) (S [R14]).
	Alpha uint32
	// Beta is the multiplicative-decrease gain β, Q0.16: 0.8 = 52429
	// (rounded from 52428.8; S [R14][R68], paper value via [R13b]).
	Beta uint32
	// TLow is T_low: below it the rate increases whatever the gradient,
	// 50 µs (S [R14][R68][R13b]).
	TLow rtlmodel.Time
	// THigh is T_high: above it the rate is multiplied by
	// 1 − β·(1 − T_high/rtt), 500 µs (S [R14][R68][R13b]).
	THigh rtlmodel.Time
	// MinRTT normalises the RTT gradient: 20 µs (S [R14][R68]).
	MinRTT rtlmodel.Time
	// AddStep is the additive step δ: 10 Mb/s (S [R14][R68][R13b], at
	// 10 Gb/s [R68]); the artifact's runs scale it as 10 Mb/s per 10 Gb/s
	// of NIC bandwidth (S [R13] formula), 400 Mb/s at 400G (E). Unit kb/s.
	AddStep Kbps
	// HAIStep is the hyper-additive step used after HAIThreshold
	// consecutive increases: the artifact's runs use 5·δ, i.e. 50 Mb/s
	// per 10 Gb/s (S [R13] formula), 2 Gb/s at 400G (E). Unit kb/s.
	HAIStep Kbps
	// HAIThreshold is the number of consecutive increases after which
	// HAIStep replaces AddStep: 5 (S [R14], m_incStage < 5).
	HAIThreshold uint32
}

// DefaultTimelyParams returns the TIMELY parameters of FACTS 2.3 for a
// sender of lineRate bits per second: α 0.875, β 0.8, T_low 50 µs,
// T_high 500 µs, minRTT 20 µs (S [R14][R68]), δ and the hyper step scaled
// with the bandwidth as the artifact's runs scale them (10 and 50 Mb/s per
// 10 Gb/s, S [R13]), hyper increase after 5 increases (S [R14]) and the
// artifact's 1 Gb/s floor (S [R13]).
func DefaultTimelyParams(lineRate uint64) TimelyParams {
	line := KbpsFromBitsPerSecond(lineRate)
	return TimelyParams{
		LineRate:     line,
		MinRate:      1 * KbpsPerGbps,
		Alpha:        57344,
		Beta:         52429,
		TLow:         50 * rtlmodel.Microsecond,
		THigh:        500 * rtlmodel.Microsecond,
		MinRTT:       20 * rtlmodel.Microsecond,
		AddStep:      line / 1000,
		HAIStep:      line / 200,
		HAIThreshold: 5,
	}
}

// PaperTimelyParams is DefaultTimelyParams with the unscaled δ = 10 Mb/s
// of the paper and of the DCQCN/TIMELY comparison sender (S [R68][R13b])
// and a hyper step of 5·δ = 50 Mb/s (S [R13] at 10 Gb/s).
func PaperTimelyParams(lineRate uint64) TimelyParams {
	p := DefaultTimelyParams(lineRate)
	p.AddStep = 10 * KbpsPerMbps
	p.HAIStep = 50 * KbpsPerMbps
	return p
}

// Validate reports a parameter set the TIMELY controller cannot run; the
// error names the field (FACTS 2.3).
func (p *TimelyParams) Validate() error {
	switch {
	case p.LineRate == 0:
		return fmt.Errorf("timely: LineRate is 0")
	case uint64(p.LineRate) >= 1<<40:
		return fmt.Errorf("timely: LineRate %d kb/s beyond 2^40 kb/s", p.LineRate)
	case p.MinRate == 0 || p.MinRate > p.LineRate:
		return fmt.Errorf("timely: MinRate %d kb/s outside 1..LineRate", p.MinRate)
	case p.Alpha == 0 || p.Alpha > TimelyOne:
		return fmt.Errorf("timely: Alpha %d (Q0.16) outside (0, 1.0]", p.Alpha)
	case p.Beta == 0 || p.Beta > TimelyOne:
		return fmt.Errorf("timely: Beta %d (Q0.16) outside (0, 1.0]", p.Beta)
	case p.TLow >= p.THigh:
		return fmt.Errorf("timely: TLow %v not below THigh %v", p.TLow, p.THigh)
	case p.THigh >= 1<<40:
		return fmt.Errorf("timely: THigh %v beyond 2^40 ps", p.THigh)
	case p.MinRTT == 0:
		return fmt.Errorf("timely: MinRTT is 0")
	case p.AddStep == 0:
		return fmt.Errorf("timely: AddStep is 0")
	case p.HAIStep == 0:
		return fmt.Errorf("timely: HAIStep is 0")
	}
	return nil
}
