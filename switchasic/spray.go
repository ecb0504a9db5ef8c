package switchasic

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// EntropyFields are the fields the per-packet spraying hash covers: the
// UDP source port (the RoCEv2 entropy, 14 bits, FACTS 7 [R7]) and the
// transport entropy value (UET, 16 bits, FACTS 7). A field a protocol
// leaves constant (zero entropy in RoCEv2, say) does not change the
// choice.
const EntropyFields = packet.FieldSrcPort | packet.FieldEntropy

// EntropySprayStrategy is per-packet spraying: the member is picked by a
// hash of the packet's entropy only, not its addresses, so a sender that
// varies its entropy per packet spreads the packets of one flow over the
// whole group (the PerPacketEntropy mode; FACTS 7 "Spraying entropy").
type EntropySprayStrategy struct {
	h *packet.ECMPHasher
}

// NewEntropySprayStrategy hashes EntropyFields with the function, seed and
// keys of base (not symmetric). It panics if base's function cannot hash
// the 4 entropy bytes (a Toeplitz key under 8 bytes).
func NewEntropySprayStrategy(base *packet.ECMPHasher) *EntropySprayStrategy {
	cfg := base.Config()
	cfg.Fields, cfg.Symmetric = EntropyFields, false
	h, err := packet.NewECMPHasher(cfg)
	if err != nil {
		panic(fmt.Sprintf("switchasic: entropy spraying hash: %v", err))
	}
	return &EntropySprayStrategy{h: h}
}

// PickMember hashes the entropy fields of key and maps the hash onto the
// members by multiply-shift.
func (s *EntropySprayStrategy) PickMember(_ int, members []int, key *packet.FlowKey, _ rtlmodel.Time) int {
	return s.h.Select(s.h.Hash(key), len(members))
}
