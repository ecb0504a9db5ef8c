package nic400g

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// DefaultEntropySetSize is the per-flow entropy set of htsim's EQDS model:
// 256 values (FACTS 2.5 table and FACTS 7, S [R19]).
const DefaultEntropySetSize = 256

// SprayParams are the parameters of an entropy set sprayed over (FACTS
// 2.5, 7).
type SprayParams struct {
	// Space is where the entropy lives: RoCEv2 UDP source port (14 bits,
	// FACTS 1.1 [R7]) or UET (16 bits, FACTS 2.6 [R21]).
	Space EntropySpace
	// SetSize is the number of entropy values per flow, a power of two no
	// larger than the space: 256 in htsim EQDS (FACTS 2.5, S [R19]).
	SetSize uint32
	// Random draws each value uniformly from the set; otherwise the set is
	// cycled through, index XOR a mask redrawn at each wrap, as htsim's
	// EqdsSrc::nextEntropy does (S [R19]).
	Random bool
	// Seed seeds the selector's own RNG stream together with its name.
	Seed uint64
}

// DefaultSprayParams returns a 256-value set (FACTS 2.5, S [R19]) in the
// given space, cycled through.
func DefaultSprayParams(space EntropySpace) SprayParams {
	return SprayParams{Space: space, SetSize: DefaultEntropySetSize, Seed: 1}
}

// Validate names the first field that is out of range.
func (p *SprayParams) Validate() error {
	if err := p.Space.validate("SprayParams.Space"); err != nil {
		return err
	}
	n := p.SetSize
	if n == 0 || n&(n-1) != 0 || n > 1<<p.Space.Bits() {
		return fmt.Errorf("SprayParams.SetSize: %d must be a power of two from 1 to 2^%d", n, p.Space.Bits())
	}
	return nil
}

// entropySet is the cycling state shared by the spraying selectors: a set
// of SetSize values whose low bits are the index and whose upper bits are
// fixed per flow (htsim's _path_random, S [R19]).
type entropySet struct {
	space EntropySpace
	mask  uint16 // SetSize − 1
	upper uint16 // per-flow bits above the index
	index uint16 // next position of the cycle
	xor   uint16 // redrawn at each wrap
	rand  bool
	rng   *rtlmodel.RNG
}

func (s *entropySet) init(p *SprayParams, name string) {
	rng := rtlmodel.NewRNG(p.Seed, name)
	mask := uint16(p.SetSize - 1)
	*s = entropySet{
		space: p.Space,
		mask:  mask,
		upper: uint16(rng.Uint64()) &^ mask,
		xor:   uint16(rng.Uint64()) & mask,
		rand:  p.Random,
		rng:   rng,
	}
}

// value returns the entropy of slot i.
func (s *entropySet) value(i uint16) uint16 { return s.space.Encode(s.upper | i&s.mask) }

// slot returns the slot of an entropy value of this set.
func (s *entropySet) slot(entropy uint16) uint16 { return entropy & s.mask }

// draw returns the next slot of the cycle (or a uniform draw).
func (s *entropySet) draw() uint16 {
	if s.rand {
		return uint16(s.rng.Uint64()) & s.mask
	}
	i := (s.index ^ s.xor) & s.mask
	s.index++
	if s.index > s.mask {
		s.index = 0
		s.xor = uint16(s.rng.Uint64()) & s.mask
	}
	return i
}

// ObliviousSpray sprays packets over the flow's entropy set without
// looking at feedback (FACTS 2.5 "Packets are sprayed across paths using
// entropy values", FACTS 7; the cycle of htsim EqdsSrc::nextEntropy with
// no penalties, S [R19]). The zero value is not usable.
type ObliviousSpray struct {
	set entropySet
}

// NewObliviousSpray returns a sprayer over a set drawn for the named flow
// (the name and p.Seed select its RNG stream).
func NewObliviousSpray(p SprayParams, name string) (*ObliviousSpray, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	o := &ObliviousSpray{}
	o.set.init(&p, name)
	return o, nil
}

// Next returns the next entropy of the set.
func (o *ObliviousSpray) Next(rtlmodel.Time) uint16 { return o.set.value(o.set.draw()) }

// OnFeedback does nothing: oblivious spraying does not react.
func (o *ObliviousSpray) OnFeedback(rtlmodel.Time, uint16, PathEvent) {}

// Entropy returns the entropy value of slot i of the set (i below
// SetSize), for tests and traces.
func (o *ObliviousSpray) Entropy(i uint16) uint16 { return o.set.value(i) }
