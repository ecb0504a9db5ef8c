package nic400g

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// Kbps is a rate in integer kilobits per second (1 kb/s = 1000 b/s). It is
// the rate register of the DCQCN reaction point: 400 Gb/s is 400,000,000,
// so a 32-bit hardware register holds rates up to 4.29 Tb/s; the model
// carries it in 64 bits so that products with α never overflow.
type Kbps uint64

// Common rates.
const (
	KbpsPerMbps Kbps = 1000
	KbpsPerGbps Kbps = 1000 * KbpsPerMbps
)

// BitsPerSecond returns r in bits per second.
func (r Kbps) BitsPerSecond() uint64 { return uint64(r) * 1000 }

// Gbps returns r in Gb/s as a float, for reports.
func (r Kbps) Gbps() float64 { return float64(r) / 1e6 }

// KbpsFromBitsPerSecond converts a rate in b/s to Kbps, rounding down.
func KbpsFromBitsPerSecond(bps uint64) Kbps { return Kbps(bps / 1000) }

// DCQCNVariant selects how the reaction point counts increase events
// (FACTS 2.1, "Two-counter variant").
type DCQCNVariant uint8

const (
	// TimerOnly counts timer events only, in one stage counter, and adds a
	// constant R_HAI in hyper increase, as the HPCC artifact's 'mlx' model
	// does (S [R14]). The byte counter B is ignored. The stage is read
	// before it is incremented: events 1..F are fast recovery, event F+1
	// is additive increase, later events are hyper increase.
	TimerOnly DCQCNVariant = iota
	// TwoCounter keeps separate counters for timer events (T) and
	// byte-counter events (BC), each incremented before the increase:
	// fast recovery while max(T, BC) <= F, hyper increase by
	// (min(T, BC) - F)·R_HAI when min(T, BC) > F, additive increase by
	// R_AI otherwise, as htsim's DCQCN model does (S [R66]).
	TwoCounter
)

// String names the variant.
func (v DCQCNVariant) String() string {
	switch v {
	case TimerOnly:
		return "timer-only"
	case TwoCounter:
		return "two-counter"
	}
	return fmt.Sprintf("DCQCNVariant(%d)", uint8(v))
}

// DCQCNParams are the parameters of a DCQCN reaction point (FACTS 2.1).
// The α register is an unsigned fixed-point fraction with AlphaBits
// fraction bits; an update is
//
//	α ← ⌊(α·(2^GShift − GNum) + r) / 2^GShift⌋ + (cnp ? GNum·2^AlphaBits / 2^GShift : 0)
//
// clamped to AlphaMax, i.e. α ← (1−g)·α (+ g) with g = GNum/2^GShift; the
// product is rounded half up (r = 2^(GShift−1)) when AlphaRound is set and
// truncated (r = 0) otherwise. A rate cut is
//
//	rate ← max(MinRate, rate − min(⌊rate·α / 2^GD⌋, ⌊rate·MaxCutPct / 100⌋))
//
// which is rate·(1 − α/2) when GD = AlphaBits + 1.
type DCQCNParams struct {
	// LineRate caps the current and target rates (FACTS 2.1, "The target
	// is capped at line rate"). Unit kb/s.
	LineRate Kbps
	// MinRate is the floor of a rate cut. Firmware rpg_min_rate = 1 Mb/s
	// (S [R10]). Unit kb/s.
	MinRate Kbps

	// AlphaBits is the number of fraction bits of α: 16 for the paper set
	// (Q1.16, so that 1.0 = 65536 and g = 1/256 are exact), 10 for the
	// firmware's 10-bit α (S [R58]).
	AlphaBits uint
	// AlphaMax is the largest α value: 2^AlphaBits for Q1.16, 1023 for the
	// firmware's 10-bit register (S [R10][R58]).
	AlphaMax uint32
	// InitialAlpha is α on the first CNP: 1.0 in the paper (S [R14]),
	// initial_alpha_value = 1023 in firmware (S [R10][R58]). Same units as
	// α.
	InitialAlpha uint32
	// GNum and GShift give the α gain g = GNum / 2^GShift. Paper g = 1/256
	// (S [R13][R65][R66]); firmware dce_tcp_g = 1019 (S [R58][R10]) read
	// as α ← α·1019/1024 + 5/1024, i.e. g = 5/1024 (E, FACTS 2.1).
	GNum   uint32
	GShift uint
	// AlphaRound rounds the α decay product half up instead of
	// truncating it. Rounding keeps a Q1.16 α within one LSB of exact
	// arithmetic but holds α once α·g < 1/2 LSB (below 128/65536 for the
	// paper set); truncation, the plain shift of the firmware's α·1019/1024
	// reading (E), lets α decay to 0. Paper set: true; firmware: false.
	AlphaRound bool
	// GD is the shift of the rate cut rate·α / 2^GD. Firmware rpg_gd = 11
	// with a 10-bit α (S [R58]), so the cut is about α/2 (E); the paper's
	// ×(1 − α/2) is GD = AlphaBits + 1.
	GD uint
	// MaxCutPct bounds one cut to this percentage of the current rate:
	// firmware rpg_min_dec_fac = 50 % (S [R58][R10]). 100 leaves the cut
	// unbounded.
	MaxCutPct uint32

	// AlphaPeriod is the α update period: paper 55 µs (S secondary
	// [R65][R66][R67]); firmware dce_tcp_rtt = 1 µs (S [R10][R58]).
	AlphaPeriod rtlmodel.Time
	// DecreasePeriod is the rate-decrease check period: paper 50 µs (S
	// [R13][R65][R66][R67]); firmware rate_reduce_monitor_period = 4 µs (S
	// [R58][R13]).
	DecreasePeriod rtlmodel.Time
	// IncreasePeriod is the rate-increase timer T: paper 55 µs (S
	// [R13][R66][R67]); firmware rpg_time_reset = 300 µs (S [R58]).
	IncreasePeriod rtlmodel.Time
	// ByteCounter is B, the bytes sent between byte-counter increase
	// events (TwoCounter only; 0 disables): paper 10 MB = 10,000,000 B (S
	// secondary [R66][R67][R65]); firmware rpg_byte_reset = 32767 (S
	// [R58]; unit not confirmed, read as bytes: E).
	ByteCounter uint64
	// F is the number of fast-recovery steps: paper 5 (S [R65][R66][R67]);
	// firmware rpg_threshold = 1 (S [R58]).
	F uint32
	// RAI is the additive-increase step R_AI: paper 40 Mb/s at 40 Gb/s
	// (S secondary [R65][R67][R13b]); firmware rpg_ai_rate = 5 Mb/s (S
	// [R11][R13]). Unit kb/s.
	RAI Kbps
	// RHAI is the hyper-increase step R_HAI: not found in the paper
	// material (U); the first author's sample config uses 200 Mb/s at 40
	// Gb/s (S [R65]) and htsim link rate/10 (S [R66]); firmware
	// rpg_hai_rate = 50 Mb/s (S [R11][R13]). Unit kb/s.
	RHAI Kbps
	// ClampTargetRate: when true every cut first sets target ← current;
	// when false it does so only if an increase event happened since the
	// last cut (firmware clamp_tgt_rate = 0 with
	// clamp_tgt_rate_after_time_inc = 1, S [R11][R58]; the rule as coded
	// in the artifact, S [R14]).
	ClampTargetRate bool
	// RateOnFirstCNP, if not zero, sets current and target to this Q0.16
	// fraction of the current rate on the first CNP (FACTS 2.1,
	// RateOnFirstCnp; firmware 0 = no special rate, S [R10]).
	RateOnFirstCNP uint32
	// Variant selects the increase-stage logic.
	Variant DCQCNVariant
	// ReleaseAtLineRate makes the reaction point go idle (all timers off,
	// NextEvent Forever) when an increase brings the current rate back to
	// line rate; the next CNP is then handled as a first CNP. The artifact
	// keeps its timers running forever [R14], so both parameter sets leave
	// this false; a NIC that frees CC state of quiet QPs sets it.
	ReleaseAtLineRate bool
}

// PaperParams returns the DCQCN paper's parameter set (FACTS 2.1, "Paper
// value" column) for a link of lineRate bits per second: g = 1/256 with α
// in Q1.16, α period 55 µs, rate-decrease period 50 µs, T = 55 µs, B = 10
// MB, F = 5, the two-counter variant of htsim [R66], target clamped on
// every cut as htsim does [R66]. R_AI = 40 Mb/s is the value quoted for
// 40 Gb/s (S secondary [R65][R67][R13b]) and R_HAI = 200 Mb/s that of the
// first author's 40 Gb/s sample config (S [R65]; the paper's own value is
// U); both are scaled in proportion to lineRate/40 Gb/s as the artifact
// scales its steps with bandwidth (E, after [R13]), so 400 Mb/s and
// 2 Gb/s at 400G. The paper
// gives no minimum rate; the firmware's 1 Mb/s is used (E).
func PaperParams(lineRate uint64) DCQCNParams {
	line := KbpsFromBitsPerSecond(lineRate)
	scale := func(atForty Kbps) Kbps {
		return Kbps(uint64(atForty) * uint64(line) / uint64(40*KbpsPerGbps))
	}
	return DCQCNParams{
		LineRate:        line,
		MinRate:         1 * KbpsPerMbps,
		AlphaBits:       16,
		AlphaMax:        1 << 16,
		InitialAlpha:    1 << 16,
		GNum:            1,
		GShift:          8,
		AlphaRound:      true,
		GD:              17,
		MaxCutPct:       100,
		AlphaPeriod:     55 * rtlmodel.Microsecond,
		DecreasePeriod:  50 * rtlmodel.Microsecond,
		IncreasePeriod:  55 * rtlmodel.Microsecond,
		ByteCounter:     10_000_000,
		F:               5,
		RAI:             scale(40 * KbpsPerMbps),
		RHAI:            scale(200 * KbpsPerMbps),
		ClampTargetRate: true,
		Variant:         TwoCounter,
	}
}

// FirmwareParams returns the NVIDIA ConnectX firmware defaults (FACTS 2.1,
// "NVIDIA firmware default" column, S [R10][R58] unless noted) for a link
// of lineRate bits per second: 10-bit α with initial 1023 and
// dce_tcp_g = 1019 (g = 5/1024), rpg_gd = 11, rpg_min_dec_fac = 50 %,
// rpg_min_rate = 1 Mb/s, dce_tcp_rtt = 1 µs, rate_reduce_monitor_period =
// 4 µs, rpg_time_reset = 300 µs, rpg_byte_reset = 32767, rpg_threshold =
// 1, rpg_ai_rate = 5 Mb/s and rpg_hai_rate = 50 Mb/s (S [R11][R13]; not
// scaled with the line rate, as the firmware value is absolute), the α
// decay product truncated (E),
// clamp_tgt_rate = 0 (S [R11][R58]), no rate on first CNP (S [R10]), and
// the timer-only stage of the artifact's firmware-like model (S [R14]).
func FirmwareParams(lineRate uint64) DCQCNParams {
	return DCQCNParams{
		LineRate:        KbpsFromBitsPerSecond(lineRate),
		MinRate:         1 * KbpsPerMbps,
		AlphaBits:       10,
		AlphaMax:        1023,
		InitialAlpha:    1023,
		GNum:            5,
		GShift:          10,
		GD:              11,
		MaxCutPct:       50,
		AlphaPeriod:     1 * rtlmodel.Microsecond,
		DecreasePeriod:  4 * rtlmodel.Microsecond,
		IncreasePeriod:  300 * rtlmodel.Microsecond,
		ByteCounter:     32767,
		F:               1,
		RAI:             5 * KbpsPerMbps,
		RHAI:            50 * KbpsPerMbps,
		ClampTargetRate: false,
		Variant:         TimerOnly,
	}
}

// Validate reports a parameter set the reaction point cannot run.
func (p *DCQCNParams) Validate() error {
	switch {
	case p.LineRate == 0:
		return fmt.Errorf("dcqcn: line rate is 0")
	case p.MinRate > p.LineRate:
		return fmt.Errorf("dcqcn: min rate %d kb/s above line rate %d kb/s", p.MinRate, p.LineRate)
	case uint64(p.LineRate) >= 1<<40:
		return fmt.Errorf("dcqcn: line rate %d kb/s beyond 2^40 kb/s", p.LineRate)
	case p.AlphaBits == 0 || p.AlphaBits > 20:
		return fmt.Errorf("dcqcn: %d α fraction bits; use 1 to 20", p.AlphaBits)
	case p.AlphaMax == 0 || p.AlphaMax > 1<<p.AlphaBits:
		return fmt.Errorf("dcqcn: α max %d outside 1..2^%d", p.AlphaMax, p.AlphaBits)
	case p.InitialAlpha > p.AlphaMax:
		return fmt.Errorf("dcqcn: initial α %d above α max %d", p.InitialAlpha, p.AlphaMax)
	case p.GShift == 0 || p.GShift > 20 || p.GNum == 0 || p.GNum >= 1<<p.GShift:
		return fmt.Errorf("dcqcn: g = %d/2^%d must lie strictly between 0 and 1", p.GNum, p.GShift)
	case p.GD == 0 || p.GD > 24:
		return fmt.Errorf("dcqcn: rate cut shift %d; use 1 to 24", p.GD)
	case p.MaxCutPct == 0 || p.MaxCutPct > 100:
		return fmt.Errorf("dcqcn: max cut %d %%; use 1 to 100", p.MaxCutPct)
	case p.AlphaPeriod == 0 || p.DecreasePeriod == 0 || p.IncreasePeriod == 0:
		return fmt.Errorf("dcqcn: timer periods must be positive (α %v, decrease %v, increase %v)", p.AlphaPeriod, p.DecreasePeriod, p.IncreasePeriod)
	case p.Variant != TimerOnly && p.Variant != TwoCounter:
		return fmt.Errorf("dcqcn: unknown variant %d", p.Variant)
	case p.RateOnFirstCNP > 1<<16:
		return fmt.Errorf("dcqcn: rate on first CNP %d above 1.0 (65536)", p.RateOnFirstCNP)
	}
	return nil
}

// AlphaFloat returns an α register value as a fraction, for reports.
func (p *DCQCNParams) AlphaFloat(a uint32) float64 {
	return float64(a) / float64(uint64(1)<<p.AlphaBits)
}
