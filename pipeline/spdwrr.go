package pipeline

import (
	"fmt"
	"math/bits"
	"slices"
)

// QueueClass places one queue in an SPDWRR scheduler.
type QueueClass struct {
	// Level is the strict priority level; 0 is served first. Queues that
	// share a level share its bandwidth by DWRR.
	Level uint8
	// Quantum is the queue's DWRR quantum in bytes (at least 1 when the
	// queue shares its level; ignored, and may be 0, when it is alone).
	Quantum uint32
}

// SPDWRR combines strict priority and DWRR: levels are served in strict
// priority order (level 0 first), and the queues of one level share it by
// deficit weighted round robin. A queue alone at its level is a strict
// priority class; the usual switch egress configuration is a few strict
// classes above one DWRR group. A decision costs a bit scan over the
// levels plus one DWRR decision.
type SPDWRR struct {
	n       int
	level   []int // queue -> level slot
	local   []int // queue -> index within its level
	members [][]int
	groups  []*DWRR
	busy    uint64 // bit l: level slot l has a queue in its round
}

// NewSPDWRR returns a scheduler over len(classes) queues. At most 64
// distinct levels are allowed.
func NewSPDWRR(classes []QueueClass) (*SPDWRR, error) {
	if len(classes) == 0 {
		return nil, fmt.Errorf("SP+DWRR: no queues")
	}
	var levels []uint8
	for _, c := range classes {
		if !slices.Contains(levels, c.Level) {
			levels = append(levels, c.Level)
		}
	}
	if len(levels) > 64 {
		return nil, fmt.Errorf("SP+DWRR: %d priority levels; at most 64", len(levels))
	}
	slices.Sort(levels)
	n := len(classes)
	var s *SPDWRR
	var member []int
	if n <= smallDWRR {
		st := &smallSPDWRRStore{}
		st.s = SPDWRR{n: n, level: st.level[:n], local: st.local[:n],
			members: st.members[:len(levels)], groups: st.groups[:len(levels)]}
		s, member = &st.s, st.member[:n]
	} else {
		s = &SPDWRR{n: n, level: make([]int, n), local: make([]int, n),
			members: make([][]int, len(levels)), groups: make([]*DWRR, len(levels))}
		member = make([]int, n)
	}
	// each level's members are a run of one array, in queue order
	count := make([]int, len(levels))
	for q, c := range classes {
		l, _ := slices.BinarySearch(levels, c.Level)
		s.level[q], s.local[q] = l, count[l]
		count[l]++
	}
	off := 0
	for l, k := range count {
		s.members[l] = member[off : off : off+k]
		off += k
	}
	for q := range classes {
		l := s.level[q]
		s.members[l] = append(s.members[l], q)
	}
	var small []smallDWRRStore // the levels' DWRRs side by side
	if n <= smallDWRR {
		small = make([]smallDWRRStore, len(levels))
	}
	for l, m := range s.members {
		quanta := make([]uint32, len(m))
		for i, q := range m {
			quanta[i] = classes[q].Quantum
			if len(m) == 1 && quanta[i] == 0 {
				quanta[i] = 1
			}
			if quanta[i] == 0 {
				return nil, fmt.Errorf("SP+DWRR: queue %d shares level %d and has a quantum of 0 bytes", q, levels[l])
			}
		}
		if small != nil {
			s.groups[l] = newSmallDWRR(&small[l], quanta)
			continue
		}
		g, err := NewDWRR(quanta)
		if err != nil {
			return nil, err
		}
		s.groups[l] = g
	}
	return s, nil
}

// smallSPDWRRStore is an SPDWRR of up to smallDWRR queues with its arrays
// beside it (one allocation; its DWRRs are a second).
type smallSPDWRRStore struct {
	s                    SPDWRR
	level, local, member [smallDWRR]int
	members              [smallDWRR][]int
	groups               [smallDWRR]*DWRR
}

// Size returns the number of queues.
func (s *SPDWRR) Size() int { return s.n }

// Levels returns the number of distinct priority levels.
func (s *SPDWRR) Levels() int { return len(s.groups) }

// Deficit returns q's DWRR deficit in bytes.
func (s *SPDWRR) Deficit(q int) uint64 { return s.groups[s.level[q]].Deficit(s.local[q]) }

func (s *SPDWRR) mark(l int) {
	if s.groups[l].count > 0 {
		s.busy |= 1 << uint(l)
	} else {
		s.busy &^= 1 << uint(l)
	}
}

// SetHead declares q's head packet size (0: empty).
func (s *SPDWRR) SetHead(q int, bytes uint32) {
	l := s.level[q]
	s.groups[l].SetHead(s.local[q], bytes)
	s.mark(l)
}

// SetPaused pauses or resumes q.
func (s *SPDWRR) SetPaused(q int, paused bool) {
	l := s.level[q]
	s.groups[l].SetPaused(s.local[q], paused)
	s.mark(l)
}

// Pick returns a queue of the highest busy level, chosen by that level's
// DWRR, or -1.
func (s *SPDWRR) Pick() int {
	if s.busy == 0 {
		return -1
	}
	l := bits.TrailingZeros64(s.busy)
	return s.members[l][s.groups[l].Pick()]
}

// Served records that q sent bytes and now has a head of nextHead bytes.
func (s *SPDWRR) Served(q int, bytes, nextHead uint32) {
	l := s.level[q]
	s.groups[l].Served(s.local[q], bytes, nextHead)
	s.mark(l)
}

// Reset empties every queue and clears all pauses and round state.
func (s *SPDWRR) Reset() {
	for _, g := range s.groups {
		g.Reset()
	}
	s.busy = 0
}
