package nic400g

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// PathAwareParams are the parameters of path-aware spraying (FACTS 2.6,
// "Path-aware spraying": per-entropy penalty scores fed by ECN, trims,
// NACKs and timeouts, S [R19] eqds.h _path_penalties, _max_penalty 1–2).
type PathAwareParams struct {
	SprayParams
	// MaxPenalty caps a penalty score: htsim's _max_penalty, typically 1
	// or 2 (FACTS 2.6, S [R19]). Default 2.
	MaxPenalty uint8
	// Penalty is added to an entropy's score per event kind, indexed by
	// PathEvent (PathOK adds nothing). htsim's EqdsSrc::processNack adds 1
	// to the NACKed packet's entropy, penalizePath(ev, 1), capped at
	// _max_penalty (S [R19]); the default weights here are 1 for ECN and
	// NACK and 2 for a trim or a timeout (E: a trim means a full queue and
	// a timeout a lost packet, stronger hints of a bad path than a mark;
	// htsim's NACK of a trim weighs 1).
	Penalty [NumPathEvents]uint8
	// DecayPeriod, if not zero, also lowers every score by one per period
	// of time since its last update, so an entropy no packet revisits
	// recovers (E). With zero a score decays only as htsim's does: by one
	// each time the cycle skips the entropy (S [R19] nextEntropy).
	DecayPeriod rtlmodel.Time
	// Recycle, if not zero, is the depth of a ring of entropies that were
	// acknowledged without a congestion signal; Next reuses them before
	// exploring, in the style of REPS (FACTS 2.6, "REPS is used as an
	// option in htsim forks", S [R20]). 0 turns recycling off.
	Recycle uint32
}

// DefaultPathAwareParams returns 256 entropies in the given space (FACTS
// 2.5, S [R19]), MaxPenalty 2 (S [R19]), penalty 1 per NACK (S [R19])
// and per ECN (E), 2 per trim or timeout (E), a 50 µs time decay (E:
// about ten base RTTs of a 400G fabric, FACTS 7), recycling off.
func DefaultPathAwareParams(space EntropySpace) PathAwareParams {
	p := PathAwareParams{
		SprayParams: DefaultSprayParams(space),
		MaxPenalty:  2,
		DecayPeriod: 50 * rtlmodel.Microsecond,
	}
	p.Penalty[PathECN] = 1
	p.Penalty[PathTrim] = 2
	p.Penalty[PathNACK] = 1
	p.Penalty[PathTimeout] = 2
	return p
}

// Validate names the first field that is out of range.
func (p *PathAwareParams) Validate() error {
	if err := p.SprayParams.Validate(); err != nil {
		return fmt.Errorf("PathAwareParams.%w", err)
	}
	if p.MaxPenalty == 0 {
		return fmt.Errorf("PathAwareParams.MaxPenalty: must be at least 1")
	}
	if p.Penalty[PathOK] != 0 {
		return fmt.Errorf("PathAwareParams.Penalty[PathOK]: %d, must be 0", p.Penalty[PathOK])
	}
	if p.Recycle > 1<<16 {
		return fmt.Errorf("PathAwareParams.Recycle: %d above 65536", p.Recycle)
	}
	return nil
}

// PathAwareSpray sprays over the flow's entropy set and avoids entropies
// with a penalty score (FACTS 2.6, S [R19]): feedback adds
// Penalty[event] to the entropy's score, capped at MaxPenalty; the cycle
// skips an entropy with a positive score and lowers it by one (htsim
// EqdsSrc::nextEntropy and penalizePath, S [R19]); scores also decay by
// one per DecayPeriod. Optionally, entropies acknowledged cleanly are
// recycled first (REPS-like, [R20]). State per flow: one byte of score
// and one time stamp per entropy, and the recycle ring. Nothing is
// allocated after construction.
type PathAwareSpray struct {
	p     PathAwareParams
	set   entropySet
	score []uint8
	stamp []rtlmodel.Time // last time score was brought up to date

	ring       []uint16 // recycled slots
	head, size uint32

	skips, recycled, explored uint64
	events                    [NumPathEvents]uint64
}

// NewPathAwareSpray returns a path-aware sprayer for the named flow (the
// name and p.Seed select its RNG stream).
func NewPathAwareSpray(p PathAwareParams, name string) (*PathAwareSpray, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	s := &PathAwareSpray{
		p:     p,
		score: make([]uint8, p.SetSize),
		stamp: make([]rtlmodel.Time, p.SetSize),
		ring:  make([]uint16, p.Recycle),
	}
	s.set.init(&p.SprayParams, name)
	return s, nil
}

// current brings slot i's score up to date with the time decay at now.
func (s *PathAwareSpray) current(i uint16, now rtlmodel.Time) uint8 {
	sc := s.score[i]
	if d := s.p.DecayPeriod; d != 0 && sc != 0 && now > s.stamp[i] {
		steps := (now - s.stamp[i]) / d
		if steps >= rtlmodel.Time(sc) {
			sc = 0
			s.stamp[i] = now
		} else {
			sc -= uint8(steps)
			s.stamp[i] += steps * d
		}
		s.score[i] = sc
	}
	return sc
}

// Next returns the entropy for a packet sent at now: a recycled clean
// entropy if there is one whose score is still 0, else the next entropy
// of the cycle whose score is 0, skipping (and lowering) penalised ones.
// Each skip lowers a score by one, so a call ends after at most
// SetSize·MaxPenalty skips.
func (s *PathAwareSpray) Next(now rtlmodel.Time) uint16 {
	for s.size > 0 {
		i := s.ring[s.head]
		s.head++
		if s.head == uint32(len(s.ring)) {
			s.head = 0
		}
		s.size--
		if s.current(i, now) == 0 {
			s.recycled++
			return s.set.value(i)
		}
	}
	for {
		i := s.set.draw()
		sc := s.current(i, now)
		if sc == 0 {
			s.explored++
			return s.set.value(i)
		}
		s.score[i] = sc - 1
		s.skips++
	}
}

// OnFeedback adds the event's penalty to the entropy's score (capped at
// MaxPenalty), or, for PathOK with recycling on, queues a clean entropy
// for reuse.
func (s *PathAwareSpray) OnFeedback(now rtlmodel.Time, entropy uint16, ev PathEvent) {
	if ev >= NumPathEvents {
		return
	}
	s.events[ev]++
	i := s.set.slot(entropy)
	sc := s.current(i, now)
	if pen := s.p.Penalty[ev]; pen != 0 {
		s.score[i] = uint8(min(uint32(sc)+uint32(pen), uint32(s.p.MaxPenalty)))
		s.stamp[i] = now
		return
	}
	if ev == PathOK && sc == 0 && len(s.ring) != 0 && s.size < uint32(len(s.ring)) {
		tail := s.head + s.size
		if tail >= uint32(len(s.ring)) {
			tail -= uint32(len(s.ring))
		}
		s.ring[tail] = i
		s.size++
	}
}

// Score returns the current penalty score of an entropy of the set.
func (s *PathAwareSpray) Score(now rtlmodel.Time, entropy uint16) uint8 {
	return s.current(s.set.slot(entropy), now)
}

// Entropy returns the entropy value of slot i of the set.
func (s *PathAwareSpray) Entropy(i uint16) uint16 { return s.set.value(i) }

// Counts returns the skips of penalised entropies, the recycled and the
// explored choices made, and the feedback events seen per PathEvent.
func (s *PathAwareSpray) Counts() (skips, recycled, explored uint64, events [NumPathEvents]uint64) {
	return s.skips, s.recycled, s.explored, s.events
}
