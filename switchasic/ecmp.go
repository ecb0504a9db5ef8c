package switchasic

import (
	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// DefaultECMPConfig hashes the 5-tuple (addresses, UDP ports, protocol)
// with CRC-32: the RoCEv2 UDP source port carries the flow entropy (FACTS
// 1.1 [R7], FACTS 7), so flows between the same two hosts still spread.
// The function is a parameter (FACTS 7: no published TH5 hash settings);
// the choice is E.
func DefaultECMPConfig() packet.ECMPConfig {
	return packet.ECMPConfig{Fields: packet.Fields5Tuple, Func: packet.HashCRC32}
}

// DefaultECMPHasher builds the hasher of DefaultECMPConfig.
func DefaultECMPHasher() *packet.ECMPHasher {
	h, err := packet.NewECMPHasher(DefaultECMPConfig())
	if err != nil {
		panic(err)
	}
	return h
}

// HashStrategy is per-flow ECMP: the member is the hasher's Select of the
// hash of the selected fields, so all packets of a flow take one member
// (the PerFlow mode; FACTS 7 "Hash/DLB").
type HashStrategy struct {
	h *packet.ECMPHasher
}

// NewHashStrategy returns per-flow ECMP over h's fields and function.
func NewHashStrategy(h *packet.ECMPHasher) *HashStrategy { return &HashStrategy{h: h} }

// PickMember hashes key and maps the hash onto the members by
// multiply-shift (packet.SelectMember).
func (s *HashStrategy) PickMember(_ int, members []int, key *packet.FlowKey, _ rtlmodel.Time) int {
	return s.h.Select(s.h.Hash(key), len(members))
}
