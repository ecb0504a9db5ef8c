package switchasic

import (
	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// RoundRobinStrategy sends the packets of each group to its members in
// turn, one pointer per group: over k x n packets each of n members gets
// exactly k (the RoundRobin mode, issue 5 "Forwarding").
type RoundRobinStrategy struct {
	next []uint32 // per group: index of the member the next packet takes
}

// NewRoundRobinStrategy returns round robin with every pointer at member 0.
func NewRoundRobinStrategy() *RoundRobinStrategy { return &RoundRobinStrategy{} }

// PickMember returns the group's pointer and advances it. The pointer
// array grows when a group beyond it first appears (once per group added
// to the table, not per packet); a pointer past a shrunk group restarts
// at 0.
func (s *RoundRobinStrategy) PickMember(group int, members []int, _ *packet.FlowKey, _ rtlmodel.Time) int {
	if group >= len(s.next) {
		s.next = append(s.next, make([]uint32, group+1-len(s.next))...)
	}
	i := s.next[group]
	if int(i) >= len(members) {
		i = 0
	}
	n := i + 1
	if int(n) == len(members) {
		n = 0
	}
	s.next[group] = n
	return int(i)
}
