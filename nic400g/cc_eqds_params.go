package nic400g

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// EQDSParams are the parameters of the receiver-credit scheme in the style
// of EQDS (FACTS 2.5, htsim model S [R19] sim/eqds.h, sim/eqds.cpp), for
// the sender (EQDSSender) and the receiver's pull pacer
// (RecvCreditPacer). Sizes are bytes, times exact picoseconds, rates bits
// per second.
type EQDSParams struct {
	// LineRate is the link rate of the NIC in bits per second: the rate
	// the receiver paces its pulls at and the base of BDP.
	LineRate uint64
	// BaseRTT is the unloaded RTT used for the speculative window and the
	// largest window (E: a property of the fabric, not of EQDS).
	BaseRTT rtlmodel.Time
	// MSS is the payload of a full packet: 4096 B (FACTS 2.5, S [R19]).
	MSS uint32
	// HeaderBytes is the header of a packet, what a trimmed packet keeps:
	// 64 B (FACTS 2.5, S [R19]).
	HeaderBytes uint32
	// CreditPerPull is the credit one pull grants: 4096 B, one MTU of
	// payload (FACTS 2.5, S [R19]).
	CreditPerPull uint32
	// PacerPermille is the share of the line rate the receiver paces its
	// pulls at, in 1/1000: 990, the 0.99 with which uet-htsim's driver
	// builds its pull pacer (S: htsim/sim/datacenter/main_uec.cpp,
	// UecPullPacer(linkspeed, 0.99, ...), in the repository of [R20]; not
	// yet a FACTS row).
	PacerPermille uint32
	// SpeculativeBytes is the unsolicited first window a sender may send
	// before any credit: one BDP at LineRate·BaseRTT (FACTS 2.5 "Senders
	// may send an unsolicited first window", U; the size is E).
	SpeculativeBytes uint64
	// MaxWindow caps the bytes in flight: 1.5·BDP, the maximum window of
	// UEC's receiver-credit RCCC (FACTS 2.6, S [R20]).
	MaxWindow uint64
	// AckCoalesceBytes: the receiver ACKs once this many bytes are
	// unacknowledged: 16,384 B (FACTS 2.5, S [R19]).
	AckCoalesceBytes uint64
	// MinRTO is the floor of the retransmission timeout: 200 µs (FACTS
	// 2.5, S [R19]).
	MinRTO rtlmodel.Time
	// MaxInFlightPackets bounds the packets a sender tracks in flight:
	// 4096 (FACTS 2.5, S [R19]). EQDSSender applies it as a byte bound of
	// MaxInFlightPackets·MSS alongside MaxWindow.
	MaxInFlightPackets uint32
	// Entropies is the size of a flow's entropy set for spraying: 256
	// (FACTS 2.5 and 7, S [R19]); see PathParams.
	Entropies uint32
}

// DefaultEQDSParams returns the htsim EQDS defaults (FACTS 2.5, S [R19])
// for a NIC of lineRate bits per second on a fabric of the given unloaded
// RTT: 4096 B of credit per pull, MSS 4096 B with a 64 B header, ACKs
// every 16,384 B, a 200 µs minimum RTO, 4096 packets tracked, 256
// entropies; pulls paced at 99 % of the line rate (S, see PacerPermille), a speculative
// first window of one BDP (E) and a largest window of 1.5 BDP (S [R20]).
func DefaultEQDSParams(lineRate uint64, baseRTT rtlmodel.Time) EQDSParams {
	p := EQDSParams{
		LineRate:           lineRate,
		BaseRTT:            baseRTT,
		MSS:                4096,
		HeaderBytes:        64,
		CreditPerPull:      4096,
		PacerPermille:      990,
		AckCoalesceBytes:   16_384,
		MinRTO:             200 * rtlmodel.Microsecond,
		MaxInFlightPackets: 4096,
		Entropies:          DefaultEntropySetSize,
	}
	bdp := p.BDP()
	p.SpeculativeBytes = bdp
	p.MaxWindow = bdp * 3 / 2
	return p
}

// BDP returns LineRate·BaseRTT in bytes, rounded down.
func (p *EQDSParams) BDP() uint64 { return wideMulDiv(p.LineRate, uint64(p.BaseRTT), 8e12) }

// WireBytes returns the bytes on the wire for n bytes of payload: the
// payload plus one header per MSS or part of one.
func (p *EQDSParams) WireBytes(n uint64) uint64 {
	pkts := (n + uint64(p.MSS) - 1) / uint64(p.MSS)
	return n + pkts*uint64(p.HeaderBytes)
}

// PathParams returns path-aware spraying parameters over the EQDS entropy
// set (FACTS 2.5, 2.6, S [R19]) in the given space.
func (p *EQDSParams) PathParams(space EntropySpace) PathAwareParams {
	pp := DefaultPathAwareParams(space)
	pp.SetSize = p.Entropies
	return pp
}

// Validate names the first field that is out of range.
func (p *EQDSParams) Validate() error {
	switch {
	case p.LineRate < 1e6 || p.LineRate > 1e14:
		return fmt.Errorf("EQDSParams.LineRate: %d b/s outside [1e6, 1e14]", p.LineRate)
	case p.BaseRTT == 0:
		return fmt.Errorf("EQDSParams.BaseRTT: 0")
	case p.MSS == 0:
		return fmt.Errorf("EQDSParams.MSS: 0")
	case p.HeaderBytes == 0 || p.HeaderBytes > p.MSS:
		return fmt.Errorf("EQDSParams.HeaderBytes: %d outside (0, MSS %d]", p.HeaderBytes, p.MSS)
	case p.CreditPerPull == 0 || p.CreditPerPull > 1<<20:
		return fmt.Errorf("EQDSParams.CreditPerPull: %d outside (0, 1 MiB]", p.CreditPerPull)
	case p.PacerPermille == 0 || p.PacerPermille > 1000:
		return fmt.Errorf("EQDSParams.PacerPermille: %d outside (0, 1000]", p.PacerPermille)
	case p.MaxWindow < uint64(p.MSS):
		return fmt.Errorf("EQDSParams.MaxWindow: %d below MSS %d", p.MaxWindow, p.MSS)
	case p.SpeculativeBytes > p.MaxWindow:
		return fmt.Errorf("EQDSParams.SpeculativeBytes: %d above MaxWindow %d", p.SpeculativeBytes, p.MaxWindow)
	case p.AckCoalesceBytes == 0:
		return fmt.Errorf("EQDSParams.AckCoalesceBytes: 0")
	case p.MinRTO == 0:
		return fmt.Errorf("EQDSParams.MinRTO: 0")
	case p.MaxInFlightPackets == 0:
		return fmt.Errorf("EQDSParams.MaxInFlightPackets: 0")
	case p.Entropies == 0 || p.Entropies&(p.Entropies-1) != 0 || p.Entropies > 1<<16:
		return fmt.Errorf("EQDSParams.Entropies: %d must be a power of two up to 65536", p.Entropies)
	}
	return nil
}
