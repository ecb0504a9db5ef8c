package nic400g

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// HPCCUBits is the number of fraction bits of the HPCC utilisation
// register: U is unsigned Q8.24 in 32 bits, so 1.0 = 2^24 and the largest
// representable utilisation is just under 256 (FACTS 2.2; the width is
// this model's choice, E). A hop whose queue alone is 17 bits of 80 B
// units (about 10.5 MB, FACTS 2.2 [R15]) over a 400G·3.5 µs BDP of 175 KB
// (DefaultHPCCBaseRTT) reads about 60, inside the range; larger values
// saturate.
const HPCCUBits = 24

// HPCCUOne is 1.0 in the Q8.24 utilisation format (FACTS 2.2).
const HPCCUOne = 1 << HPCCUBits

// HPCCParams are the parameters of the HPCC sender (FACTS 2.2). The
// window is in bytes, the utilisation U and the target η in Q8.24
// (HPCCUBits), time in picoseconds.
type HPCCParams struct {
	// LineRate is the sender's line rate B_nic; it bounds the pacing rate
	// and with BaseRTT gives the largest window. Unit kb/s.
	LineRate Kbps
	// BaseRTT is T, the base round trip the utilisation and the pacing
	// rate W/T are measured against. The artifact runs with one T for the
	// whole network, the largest base RTT of any pair of hosts of the
	// topology, and the BDP at that T as the window (GLOBAL_T 1, S
	// [R13][R14]); htsim's model fixes 12 µs for its reference network (S
	// [R83]). NICs take Config.HPCCBaseRTT, which package fabric sets to
	// its fabric's largest unloaded round trip. It must be a whole number of
	// nanoseconds, as the INT timestamps are, and below 2^24 ns.
	BaseRTT rtlmodel.Time
	// Eta is the target utilisation η in Q8.24: 0.95 (U_TARGET, S
	// [R13][R14][R16]), i.e. 15938355 = round(0.95·2^24).
	Eta uint32
	// MaxStage is the number of consecutive additive-increase updates
	// before a multiplicative update is forced: 5 in the code default and
	// the IETF draft pseudocode (S [R14][R83]); the artifact's run
	// configuration uses 0 (S [R13]).
	MaxStage uint32
	// WAI is the additive-increase step W_AI in bytes. The paper formula
	// W_init·(1−η)/N is U (FACTS 2.2); the artifact adds a rate step
	// R_AI = 10 Mb/s·B/25G instead (S [R13]), which is the window step
	// R_AI·T. DefaultHPCCParams derives W_AI that way (E): 160 Mb/s at
	// 400G times 3.5 µs is 70 B (240 B at 12 µs). htsim uses one MSS (S
	// [R83]).
	WAI uint64
	// MinWindow is the floor of the window in bytes. The artifact floors
	// every rate at MIN_RATE = 1000 Mb/s (S [R13]); DefaultHPCCParams
	// takes the window that paces at that rate over T (E): 437 B at
	// 3.5 µs, 1500 B at 12 µs. Pacing at W/T lets windows below one
	// packet still send.
	MinWindow uint64
	// MaxWindow is the ceiling of the window in bytes and the initial
	// window: the line-rate BDP B_nic·T, which htsim's model starts with
	// (S [R83]); the artifact caps the rate at the NIC's line rate (S
	// [R14]), which is the same bound as a window (E). 0 means "derive
	// it": NewHPCC then uses LineRate·BaseRTT.
	MaxWindow uint64
	// FastReact applies the per-ACK window ("fast react") to the pacing
	// rate and window between the once-per-RTT reference updates (S
	// [R14][R16]). With it off only the reference updates act.
	FastReact bool
}

// DefaultHPCCBaseRTT is the base RTT T a NIC's HPCC takes when
// Config.HPCCBaseRTT is zero. The artifact's T is the largest unloaded
// round trip between two hosts of the network (S [R13][R14]), which in
// this model's fabrics with 2 m cables is about 1.2 µs through one
// switch, 2.2 µs through three (leaf-spine) and 3.2 µs through five (fat
// tree) with 4 KB frames (E: the smallest RTT sample of each path length,
// fabricmodel run of 64 KB permutations); 3.5 µs covers the five-switch
// paths, so that every pair's BDP fits in the largest window B·T, as the
// artifact's does. Package fabric does not take it: it computes each
// fabric's T from its topology, cables, MTU and devices' latencies.
const DefaultHPCCBaseRTT = 3500 * rtlmodel.Nanosecond

// HTSimHPCCBaseRTT is the base RTT of htsim's HPCC model, 12 µs (S
// [R83]): its reference network's, not this model's fabrics'.
const HTSimHPCCBaseRTT = 12 * rtlmodel.Microsecond

// DefaultHPCCParams returns the HPCC parameters of FACTS 2.2 for a sender
// of lineRate bits per second in a network of base RTT baseRTT (T, see
// HPCCParams.BaseRTT): η = 0.95 (S [R13][R14][R16]), maxStage 5 (S
// [R14][R83]), W_AI = R_AI·T with the artifact's R_AI = 10 Mb/s·lineRate/25G
// (S [R13] formula; the window form is E), the artifact's 1 Gb/s rate
// floor as the window 1 Gb/s·T (S [R13]; the window form is E), the
// line-rate BDP B·T as the initial and largest window (S [R13][R83]) and
// fast react on (S [R14][R16]).
func DefaultHPCCParams(lineRate uint64, baseRTT rtlmodel.Time) HPCCParams {
	p := HPCCParams{
		LineRate:  KbpsFromBitsPerSecond(lineRate),
		BaseRTT:   baseRTT,
		Eta:       15938355,
		MaxStage:  5,
		FastReact: true,
	}
	rai := lineRate / 2500 // 10 Mb/s per 25 Gb/s, in b/s
	p.WAI = rai * uint64(p.BaseRTT) / 8e12
	p.MinWindow = 1e9 * uint64(p.BaseRTT) / 8e12
	p.MaxWindow = p.BDP()
	return p
}

// BDP returns LineRate·BaseRTT in bytes, rounded down (FACTS 2.2).
func (p *HPCCParams) BDP() uint64 {
	return ccMulDiv(p.LineRate.BitsPerSecond(), uint64(p.BaseRTT), 8e12)
}

// Validate reports a parameter set the HPCC sender cannot run; the error
// names the field (FACTS 2.2).
func (p *HPCCParams) Validate() error {
	switch {
	case p.LineRate == 0:
		return fmt.Errorf("hpcc: LineRate is 0")
	case uint64(p.LineRate) >= 1<<40:
		return fmt.Errorf("hpcc: LineRate %d kb/s beyond 2^40 kb/s", p.LineRate)
	case p.BaseRTT == 0 || p.BaseRTT%rtlmodel.Nanosecond != 0 || p.BaseRTT >= (1<<24)*rtlmodel.Nanosecond:
		return fmt.Errorf("hpcc: BaseRTT %v must be a positive whole number of ns below 2^24 ns", p.BaseRTT)
	case p.Eta == 0 || p.Eta > HPCCUOne:
		return fmt.Errorf("hpcc: Eta %d (Q8.24) outside (0, 1.0]", p.Eta)
	case p.MinWindow == 0:
		return fmt.Errorf("hpcc: MinWindow is 0")
	case p.MaxWindow != 0 && p.MaxWindow < p.MinWindow:
		return fmt.Errorf("hpcc: MaxWindow %d B below MinWindow %d B", p.MaxWindow, p.MinWindow)
	case p.MaxWindow >= 1<<32:
		return fmt.Errorf("hpcc: MaxWindow %d B beyond 2^32 B", p.MaxWindow)
	case p.WAI >= 1<<32:
		return fmt.Errorf("hpcc: WAI %d B beyond 2^32 B", p.WAI)
	}
	return nil
}
