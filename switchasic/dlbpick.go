package switchasic

import (
	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// DLBStrategy is dynamic load balancing on flowlets (the DLB mode; FACTS
// 7 "Hash/DLB", parameters E). A packet whose flow has a live flowlet in
// its group sticks to that member. Otherwise a new flowlet starts on the
// member whose egress port is in the best (lowest) PortQuality band; among
// members tied in that band the first one at or after the group's
// rotating pointer wins, and the pointer moves to the member after the
// winner, as a round-robin arbiter's does. Ties so spread evenly and
// deterministically: the member after a congested one gets no extra
// share.
type DLBStrategy struct {
	h        *packet.ECMPHasher
	flowlets *FlowletTable
	bands    BandReader
	next     []uint16 // per group: member index the tie search starts at
	started  uint64
	stuck    uint64
}

// NewDLBStrategy builds DLB with cfg's flowlet table, flows identified by
// h's hash, and port bands read from bands (a PortQuality, for one).
func NewDLBStrategy(cfg DLBConfig, h *packet.ECMPHasher, bands BandReader) *DLBStrategy {
	return &DLBStrategy{h: h, flowlets: NewFlowletTable(cfg.FlowletEntries, cfg.FlowletGap), bands: bands}
}

// PickMember keeps a live flowlet on its member or starts a new one on the
// best-band member.
func (s *DLBStrategy) PickMember(group int, members []int, key *packet.FlowKey, now rtlmodel.Time) int {
	slot := s.flowlets.Slot(s.h.Hash(key), group)
	if m, ok := s.flowlets.Live(slot, group, len(members), now); ok {
		s.stuck++
		return m
	}
	if group >= len(s.next) {
		s.next = append(s.next, make([]uint16, group+1-len(s.next))...)
	}
	n := len(members)
	i := int(s.next[group])
	if i >= n {
		i = 0
	}
	best, bestBand := i, s.bands.Band(members[i])
	for k := 1; k < n && bestBand > 0; k++ {
		if i++; i == n {
			i = 0
		}
		if b := s.bands.Band(members[i]); b < bestBand {
			best, bestBand = i, b
		}
	}
	s.next[group] = uint16((best + 1) % n)
	s.flowlets.Start(slot, group, best, now)
	s.started++
	return best
}

// Flowlets is the strategy's flowlet table.
func (s *DLBStrategy) Flowlets() *FlowletTable { return s.flowlets }

// Counts returns how many packets started a new flowlet and how many
// stuck to a live one.
func (s *DLBStrategy) Counts() (started, stuck uint64) { return s.started, s.stuck }
