package nic400g

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// PathEvent is what the transport learned about a packet sent on one
// entropy value (FACTS 2.6, "Path-aware spraying": penalties are fed by
// ECN, trims, NACKs and timeouts, S [R19]).
type PathEvent uint8

const (
	// PathOK is an acknowledgement without congestion signal.
	PathOK PathEvent = iota
	// PathECN is an acknowledgement of a CE-marked packet (ECN echo).
	PathECN
	// PathTrim is a NACK for a packet a switch trimmed to its header
	// (UET NACK code TRIMMED 0x01, FACTS 2.6 / 7, S [R21]).
	PathTrim
	// PathNACK is any other NACK that names the entropy.
	PathNACK
	// PathTimeout is a retransmission timeout of a packet sent on the
	// entropy.
	PathTimeout
	// NumPathEvents is the number of event kinds, the length of
	// PathAwareParams.Penalty.
	NumPathEvents
)

// String names the event.
func (e PathEvent) String() string {
	switch e {
	case PathOK:
		return "ok"
	case PathECN:
		return "ecn"
	case PathTrim:
		return "trim"
	case PathNACK:
		return "nack"
	case PathTimeout:
		return "timeout"
	}
	return fmt.Sprintf("PathEvent(%d)", uint8(e))
}

// PathSelector chooses the entropy value of each packet a flow sends and
// learns from the feedback on earlier ones: a small primitive behind an
// interface, in the style of htsim's UecMultipath strategies
// (ARCHITECTURE "Code worth reading"). The entropy is the RoCEv2 UDP
// source port (0xC000–0xFFFF, 14 bits, FACTS 1.1 [R7]) or the 16-bit UET
// entropy (FACTS 2.6 [R21][R21b], FACTS 7). Implementations allocate
// nothing per call.
type PathSelector interface {
	// Next returns the entropy value for the next packet sent at now.
	Next(now rtlmodel.Time) uint16
	// OnFeedback reports what happened to a packet sent on entropy.
	OnFeedback(now rtlmodel.Time, entropy uint16, ev PathEvent)
}

// EntropySpace says where entropy values live in the packet (FACTS 1.1,
// 2.6, 7).
type EntropySpace uint8

const (
	// EntropyRoCEv2 is the RoCEv2 UDP source port: 0xC000 | 14 bits
	// (IB_ROCE_UDP_ENCAP_VALID_PORT_MIN/MAX, S [R7]).
	EntropyRoCEv2 EntropySpace = iota
	// EntropyUET is the 16-bit UET entropy (UDP source port or the
	// entropy header over native IP, S [R21][R21b]).
	EntropyUET
)

// RoCEv2 source-port range (FACTS 1.1, S [R7]).
const (
	RoCEv2SportMin  uint16 = 0xC000
	RoCEv2SportMax  uint16 = 0xFFFF
	roceEntropyMask uint16 = 0x3FFF
)

// Bits returns the number of entropy bits: 14 for RoCEv2, 16 for UET
// (FACTS 7).
func (s EntropySpace) Bits() uint {
	if s == EntropyRoCEv2 {
		return 14
	}
	return 16
}

// Encode maps a raw entropy x to a value of the space: the low 14 bits
// ORed into 0xC000 for RoCEv2 (as Linux does [R7]), x itself for UET.
func (s EntropySpace) Encode(x uint16) uint16 {
	if s == EntropyRoCEv2 {
		return RoCEv2SportMin | x&roceEntropyMask
	}
	return x
}

// String names the space.
func (s EntropySpace) String() string {
	switch s {
	case EntropyRoCEv2:
		return "rocev2"
	case EntropyUET:
		return "uet"
	}
	return fmt.Sprintf("EntropySpace(%d)", uint8(s))
}

func (s EntropySpace) validate(field string) error {
	if s != EntropyRoCEv2 && s != EntropyUET {
		return fmt.Errorf("%s: unknown entropy space %d", field, uint8(s))
	}
	return nil
}

// RoCEv2FlowLabel is Linux's symmetric flow label of a QP pair: the
// product of the local and remote QPNs folded to 20 bits
// (rdma_calc_flow_label, FACTS 1.1, S [R7]).
func RoCEv2FlowLabel(localQPN, remoteQPN uint32) uint32 {
	v := uint64(localQPN) * uint64(remoteQPN)
	v ^= v >> 20
	v ^= v >> 40
	return uint32(v & 0xFFFFF)
}

// RoCEv2SourcePort folds a 20-bit flow label to the 14-bit RoCEv2 UDP
// source port in 0xC000–0xFFFF (rdma_flow_label_to_udp_sport, FACTS 1.1,
// S [R7]).
func RoCEv2SourcePort(flowLabel uint32) uint16 {
	lo := flowLabel & 0x3FFF
	hi := flowLabel & 0xFC000
	lo ^= hi >> 14
	return uint16(lo) | RoCEv2SportMin
}
