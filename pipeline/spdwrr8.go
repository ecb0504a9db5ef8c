package pipeline

import (
	"fmt"
	"math/bits"
	"slices"
)

// SPDWRR8 is SPDWRR over at most eight queues (a switch port's traffic
// classes) with every field in three cache lines and no pointer: the
// round state in the first, the head sizes and quanta in the second, the
// deficits in the third. A switch model keeps one per egress port and
// touches it once or twice per packet, long after the rest of the fabric
// has evicted it, so each line saved is a miss saved; SPDWRR spreads the
// same state over a dozen lines. Its decisions are SPDWRR's, queue for
// queue (TestSPDWRR8MatchesSPDWRR). The zero value is not usable; make
// one with NewSPDWRR8.
type SPDWRR8 struct {
	n, levels uint8
	busy      uint8 // bit l: level slot l has a queue in its round
	paused    uint8 // bit q: q is paused
	fresh     uint8 // bit q: the front queue q has had its quantum this visit
	inRound   uint8 // bit q: q is in its level's round
	levelOf   [spdwrr8Max]uint8
	count     [spdwrr8Max]uint8 // per level slot: queues in its round
	front     [spdwrr8Max]int8  // per level slot, -1: empty round
	back      [spdwrr8Max]int8
	next      [spdwrr8Max]int8 // per queue: the round as a doubly linked list
	prev      [spdwrr8Max]int8
	_         [10]byte

	head    [spdwrr8Max]uint32
	quantum [spdwrr8Max]uint32
	deficit [spdwrr8Max]uint64
}

// spdwrr8Max is the most queues an SPDWRR8 schedules.
const spdwrr8Max = 8

// NewSPDWRR8 returns a scheduler over len(classes) queues, 1 to 8, with
// NewSPDWRR's rules: levels served in strict priority, the queues of one
// level sharing it by DWRR, a queue alone at its level needing no quantum.
func NewSPDWRR8(classes []QueueClass) (SPDWRR8, error) {
	var s SPDWRR8
	if len(classes) == 0 || len(classes) > spdwrr8Max {
		return s, fmt.Errorf("SP+DWRR: %d queues; this scheduler takes 1 to %d", len(classes), spdwrr8Max)
	}
	var levels []uint8
	for _, c := range classes {
		if !slices.Contains(levels, c.Level) {
			levels = append(levels, c.Level)
		}
	}
	slices.Sort(levels)
	var members [spdwrr8Max]int
	for q, c := range classes {
		l, _ := slices.BinarySearch(levels, c.Level)
		s.levelOf[q] = uint8(l)
		members[l]++
	}
	for q, c := range classes {
		quantum := c.Quantum
		if quantum == 0 {
			if members[s.levelOf[q]] > 1 {
				return s, fmt.Errorf("SP+DWRR: queue %d shares level %d and has a quantum of 0 bytes", q, c.Level)
			}
			quantum = 1
		}
		s.quantum[q] = quantum
	}
	s.n, s.levels = uint8(len(classes)), uint8(len(levels))
	s.Reset()
	return s, nil
}

// Size returns the number of queues.
func (s *SPDWRR8) Size() int { return int(s.n) }

// Levels returns the number of distinct priority levels.
func (s *SPDWRR8) Levels() int { return int(s.levels) }

// Deficit returns q's DWRR deficit in bytes.
func (s *SPDWRR8) Deficit(q int) uint64 { return s.deficit[q] }

// SetHead declares q's head packet size (0: empty).
func (s *SPDWRR8) SetHead(q int, bytes uint32) {
	s.head[q] = bytes
	s.update(q)
}

// SetPaused pauses or resumes q.
func (s *SPDWRR8) SetPaused(q int, paused bool) {
	if paused {
		s.paused |= 1 << uint(q)
	} else {
		s.paused &^= 1 << uint(q)
	}
	s.update(q)
}

// Pick returns a queue of the highest busy level, chosen by that level's
// DWRR, or -1.
func (s *SPDWRR8) Pick() int {
	if s.busy == 0 {
		return -1
	}
	l := bits.TrailingZeros8(s.busy)
	for s.count[l] > 0 {
		q := int(s.front[l])
		bit := uint8(1) << uint(q)
		if s.fresh&bit == 0 {
			add := uint64(s.quantum[q])
			if s.count[l] == 1 && uint64(s.head[q]) > s.deficit[q]+add {
				// Alone in the round: the quanta of all the visits it
				// would make before its head fits, at once.
				need := uint64(s.head[q]) - s.deficit[q]
				add *= (need + add - 1) / add
			}
			s.deficit[q] += add
			s.fresh |= bit
		}
		if uint64(s.head[q]) <= s.deficit[q] {
			return q
		}
		s.fresh &^= bit
		if s.count[l] > 1 {
			s.remove(q)
			s.pushBack(q)
		}
	}
	return -1
}

// Served records that q sent bytes and now has a head of nextHead bytes;
// it takes bytes off q's deficit, never below zero.
func (s *SPDWRR8) Served(q int, bytes, nextHead uint32) {
	s.deficit[q] -= min(s.deficit[q], uint64(bytes))
	s.head[q] = nextHead
	s.update(q)
}

// Reset empties every queue and clears all pauses, deficits and rounds.
func (s *SPDWRR8) Reset() {
	s.busy, s.paused, s.fresh, s.inRound = 0, 0, 0, 0
	s.count = [spdwrr8Max]uint8{}
	for i := range s.front {
		s.front[i], s.back[i] = -1, -1
	}
	s.head = [spdwrr8Max]uint32{}
	s.deficit = [spdwrr8Max]uint64{}
}

// update moves q in or out of its level's round after its state changed.
func (s *SPDWRR8) update(q int) {
	bit := uint8(1) << uint(q)
	elig := s.head[q] > 0 && s.paused&bit == 0
	switch in := s.inRound&bit != 0; {
	case elig && !in:
		s.pushBack(q)
	case !elig && in:
		s.remove(q)
		s.deficit[q] = 0
		s.fresh &^= bit
	}
}

func (s *SPDWRR8) pushBack(q int) {
	l := s.levelOf[q]
	s.next[q], s.prev[q] = -1, s.back[l]
	if b := s.back[l]; b >= 0 {
		s.next[b] = int8(q)
	} else {
		s.front[l] = int8(q)
	}
	s.back[l] = int8(q)
	s.count[l]++
	s.inRound |= 1 << uint(q)
	s.busy |= 1 << l
}

func (s *SPDWRR8) remove(q int) {
	l := s.levelOf[q]
	p, nx := s.prev[q], s.next[q]
	if p >= 0 {
		s.next[p] = nx
	} else {
		s.front[l] = nx
	}
	if nx >= 0 {
		s.prev[nx] = p
	} else {
		s.back[l] = p
	}
	s.count[l]--
	s.inRound &^= 1 << uint(q)
	if s.count[l] == 0 {
		s.busy &^= 1 << l
	}
}
