package switchasic

import (
	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// RandomStrategy picks a member uniformly at random per packet from one
// seeded stream (the Random mode, issue 5 "Forwarding"), so the same seed
// gives the same choices (ARCHITECTURE "Determinism").
type RandomStrategy struct {
	rng *rtlmodel.RNG
}

// NewRandomStrategy draws from the stream (seed, "switchasic/lb/random").
func NewRandomStrategy(seed uint64) *RandomStrategy {
	return &RandomStrategy{rng: rtlmodel.NewRNG(seed, "switchasic/lb/random")}
}

// PickMember returns a uniform index into members.
func (s *RandomStrategy) PickMember(_ int, members []int, _ *packet.FlowKey, _ rtlmodel.Time) int {
	return s.rng.Intn(len(members))
}
