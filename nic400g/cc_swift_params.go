package nic400g

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// SwiftFracBits is the number of fraction bits of the Swift gains and of
// the congestion window: β and max_mdf are unsigned Q0.16, ai and the
// flow-scaling window bounds are Q16.16 packets, and the window is kept in
// bytes with 16 fraction bits (FACTS 2.4; the widths are this model's
// choice, E).
const SwiftFracBits = 16

// SwiftOne is 1.0 in the Swift fixed-point formats (FACTS 2.4).
const SwiftOne = 1 << SwiftFracBits

// SwiftParams are the parameters of the Swift sender (FACTS 2.4). FACTS
// tags every Swift constant U: the defaults are htsim's, which its own
// comments call guesses (S [R19] for what htsim uses, U for what Swift
// itself uses), so every one is a field.
type SwiftParams struct {
	// LineRate caps the pacing rate and sizes the initial window. Unit
	// kb/s.
	LineRate Kbps
	// MSS is the packet payload the window counts in, bytes: 4096, the
	// largest RoCE MTU of the NIC model (E).
	MSS uint32
	// AI is the additive increase per RTT in packets, Q16.16: htsim 1.0
	// (S [R19], U); another public model uses 0.5 (FACTS 2.4).
	AI uint32
	// Beta is the multiplicative-decrease gain β, Q0.16: htsim 0.8 =
	// 52429 (S [R19], U); another model uses 0.5.
	Beta uint32
	// MaxMDF bounds one decrease to ×(1 − max_mdf), Q0.16: htsim 0.5 (S
	// [R19], U); another model uses 0.3.
	MaxMDF uint32
	// BaseTarget is the base target delay: htsim 20 µs (S [R19], U).
	BaseTarget rtlmodel.Time
	// HopScale is the per-hop scaling h added per hop to the target:
	// htsim base/6.55 (S [R19], U), 3.053435 µs rounded to the ps (E).
	HopScale rtlmodel.Time
	// FSRange is the largest flow-scaling addition to the target: htsim
	// 5·base = 100 µs (S [R19], U); another model uses 1.5·base.
	FSRange rtlmodel.Time
	// FSMinCwnd and FSMaxCwnd are the windows, in Q16.16 packets, at
	// which flow scaling adds FSRange and 0: 0.1 and 100 packets (S
	// [R19], FACTS 2.4, U).
	FSMinCwnd, FSMaxCwnd uint32
	// RetxResetThreshold is the number of consecutive retransmission
	// timeouts after which the window drops to MinCwnd: 5 (S [R19], U).
	RetxResetThreshold uint32
	// MinCwnd and MaxCwnd bound the window in bytes: htsim 10 B and
	// 1000·MSS (S [R19], U).
	MinCwnd, MaxCwnd uint64
	// InitialCwnd is the starting window in bytes: the line-rate window
	// over the base target, LineRate·BaseTarget (E; htsim's driver sets
	// its own, [R19]).
	InitialCwnd uint64
}

// DefaultSwiftParams returns htsim's Swift constants (FACTS 2.4, S [R19],
// tagged U) for a sender of lineRate bits per second: ai 1 packet, β 0.8,
// max_mdf 0.5, base target 20 µs, h = base/6.55, flow scaling over 5·base
// between 0.1 and 100 packets, reset after 5 retransmission timeouts,
// window between 10 B and 1000 MSS, MSS 4096 B and an initial window of
// the line rate times the base target (E).
func DefaultSwiftParams(lineRate uint64) SwiftParams {
	p := SwiftParams{
		LineRate:           KbpsFromBitsPerSecond(lineRate),
		MSS:                4096,
		AI:                 SwiftOne,
		Beta:               52429,
		MaxMDF:             SwiftOne / 2,
		BaseTarget:         20 * rtlmodel.Microsecond,
		FSMinCwnd:          6554, // 0.1 packet
		FSMaxCwnd:          100 * SwiftOne,
		RetxResetThreshold: 5,
		MinCwnd:            10,
	}
	p.HopScale = rtlmodel.Time((uint64(p.BaseTarget)*100 + 327) / 655) // base/6.55, rounded
	p.FSRange = 5 * p.BaseTarget
	p.MaxCwnd = 1000 * uint64(p.MSS)
	p.InitialCwnd = min(ccMulDiv(lineRate, uint64(p.BaseTarget), 8e12), p.MaxCwnd)
	return p
}

// Validate reports a parameter set the Swift sender cannot run; the error
// names the field (FACTS 2.4).
func (p *SwiftParams) Validate() error {
	switch {
	case p.LineRate == 0:
		return fmt.Errorf("swift: LineRate is 0")
	case uint64(p.LineRate) >= 1<<40:
		return fmt.Errorf("swift: LineRate %d kb/s beyond 2^40 kb/s", p.LineRate)
	case p.MSS == 0 || p.MSS > 1<<16:
		return fmt.Errorf("swift: MSS %d B outside 1..65536", p.MSS)
	case p.AI == 0 || p.AI > 1<<24:
		return fmt.Errorf("swift: AI %d (Q16.16 packets) outside (0, 256]", p.AI)
	case p.Beta == 0 || p.Beta > SwiftOne:
		return fmt.Errorf("swift: Beta %d (Q0.16) outside (0, 1.0]", p.Beta)
	case p.MaxMDF == 0 || p.MaxMDF > SwiftOne:
		return fmt.Errorf("swift: MaxMDF %d (Q0.16) outside (0, 1.0]", p.MaxMDF)
	case p.BaseTarget == 0 || p.BaseTarget >= 1<<40:
		return fmt.Errorf("swift: BaseTarget %v outside (0, 2^40 ps)", p.BaseTarget)
	case p.HopScale >= 1<<40:
		return fmt.Errorf("swift: HopScale %v beyond 2^40 ps", p.HopScale)
	case p.FSRange >= 1<<40:
		return fmt.Errorf("swift: FSRange %v beyond 2^40 ps", p.FSRange)
	case p.FSMinCwnd == 0:
		return fmt.Errorf("swift: FSMinCwnd is 0")
	case p.FSMaxCwnd <= p.FSMinCwnd:
		return fmt.Errorf("swift: FSMaxCwnd %d not above FSMinCwnd %d (Q16.16 packets)", p.FSMaxCwnd, p.FSMinCwnd)
	case p.RetxResetThreshold == 0:
		return fmt.Errorf("swift: RetxResetThreshold is 0")
	case p.MinCwnd == 0:
		return fmt.Errorf("swift: MinCwnd is 0")
	case p.MaxCwnd < p.MinCwnd || p.MaxCwnd >= 1<<32:
		return fmt.Errorf("swift: MaxCwnd %d B outside MinCwnd..2^32 B", p.MaxCwnd)
	case p.InitialCwnd < p.MinCwnd || p.InitialCwnd > p.MaxCwnd:
		return fmt.Errorf("swift: InitialCwnd %d B outside MinCwnd..MaxCwnd", p.InitialCwnd)
	}
	return nil
}
