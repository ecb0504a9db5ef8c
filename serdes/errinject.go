package serdes

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// GilbertElliott is a two-state burst error channel: a good state and a
// bad state, each with its own bit error ratio, and per-bit probabilities of
// moving between them. Dwell times are geometric, so bursts have mean length
// 1/BadToGood bits. It models the error bursts a DFE produces at high
// symbol rates (FACTS 3 [R31]: RS(544,514) is sensitive to the nature of the
// errors).
type GilbertElliott struct {
	// GoodBER is the bit error ratio in the good state.
	GoodBER float64
	// BadBER is the bit error ratio in the bad state.
	BadBER float64
	// GoodToBad is the per-bit probability of entering the bad state.
	GoodToBad float64
	// BadToGood is the per-bit probability of leaving the bad state.
	BadToGood float64
}

// Validate reports a parameter out of [0,1] or a chain that can never
// leave a state it starts in while the other is reachable.
func (g GilbertElliott) Validate() error {
	for _, p := range []struct {
		name string
		v    float64
	}{{"GoodBER", g.GoodBER}, {"BadBER", g.BadBER}, {"GoodToBad", g.GoodToBad}, {"BadToGood", g.BadToGood}} {
		if !(p.v >= 0 && p.v <= 1) {
			return fmt.Errorf("serdes: Gilbert-Elliott %s = %v is not a probability", p.name, p.v)
		}
	}
	if g.GoodToBad > 0 && g.BadToGood == 0 {
		return fmt.Errorf("serdes: Gilbert-Elliott bad state is absorbing (BadToGood = 0)")
	}
	return nil
}

// MeanBER returns the long-run bit error ratio, weighting each state's BER
// by its stationary probability GoodToBad/(GoodToBad+BadToGood) for bad.
func (g GilbertElliott) MeanBER() float64 {
	if g.GoodToBad == 0 {
		return g.GoodBER
	}
	pb := g.GoodToBad / (g.GoodToBad + g.BadToGood)
	return (1-pb)*g.GoodBER + pb*g.BadBER
}

// errorMode is what a lane's error process is doing.
type errorMode uint8

const (
	modeRandom errorMode = iota
	modeBurst
	modeFailed
)

// FailedLaneBER is the bit error ratio of a failed lane: the receiver sees
// noise, each bit right or wrong with equal probability.
const FailedLaneBER = 0.5

// LaneErrors is the error process of one lane's bit stream: independent bit
// errors at a BER, Gilbert-Elliott bursts, or a failed lane. Errors are
// found by skipping: the gap to the next errored bit is drawn from the
// geometric distribution, one draw per error, never one per bit, so a lane
// at BER 1e-12 costs nothing between errors. All draws come from the lane's
// own RNG, so a seed fixes every error.
type LaneErrors struct {
	rng  *rand.Rand
	mode errorMode
	ber  float64 // random mode
	ge   GilbertElliott
	bad  bool   // burst mode: in the bad state
	gap  uint64 // clean bits before the next error
	stay uint64 // burst mode: bits left in the current state
	prev errorMode
	bits uint64 // bits passed
	errs uint64 // bits flipped
}

// NewLaneErrors returns a lane with independent errors at ber (0 for a
// clean lane), drawing from a generator seeded by seed.
func NewLaneErrors(seed uint64, ber float64) (*LaneErrors, error) {
	l := &LaneErrors{rng: NewRNG(seed)}
	if err := l.SetBER(ber); err != nil {
		return nil, err
	}
	return l, nil
}

// SetBER switches the lane to independent errors at ber; a failed lane is
// restored.
func (l *LaneErrors) SetBER(ber float64) error {
	if !(ber >= 0 && ber <= 1) {
		return fmt.Errorf("serdes: BER %v is not a probability", ber)
	}
	l.mode, l.ber = modeRandom, ber
	l.gap = geometricGap(l.rng, ber)
	return nil
}

// SetBurst switches the lane to the Gilbert-Elliott channel g, starting in
// the good state; a failed lane is restored.
func (l *LaneErrors) SetBurst(g GilbertElliott) error {
	if err := g.Validate(); err != nil {
		return err
	}
	l.mode, l.ge, l.bad = modeBurst, g, false
	l.enterState()
	return nil
}

func (l *LaneErrors) enterState() {
	leave, ber := l.ge.GoodToBad, l.ge.GoodBER
	if l.bad {
		leave, ber = l.ge.BadToGood, l.ge.BadBER
	}
	// bits spent in the state: 1 + geometric
	s := geometricGap(l.rng, leave)
	if s < math.MaxUint64 {
		s++
	}
	l.stay = s
	l.gap = geometricGap(l.rng, ber)
}

// Fail takes the lane down: from now on it delivers noise (FailedLaneBER)
// until Restore.
func (l *LaneErrors) Fail() {
	if l.mode == modeFailed {
		return
	}
	l.prev, l.mode = l.mode, modeFailed
	l.gap = geometricGap(l.rng, FailedLaneBER)
}

// Restore brings a failed lane back to the error process it had before.
func (l *LaneErrors) Restore() {
	if l.mode != modeFailed {
		return
	}
	l.mode = l.prev
	switch l.mode {
	case modeRandom:
		l.gap = geometricGap(l.rng, l.ber)
	case modeBurst:
		l.bad = false
		l.enterState()
	}
}

// Failed reports whether the lane is down.
func (l *LaneErrors) Failed() bool { return l.mode == modeFailed }

// Bits returns the number of bits the lane has carried.
func (l *LaneErrors) Bits() uint64 { return l.bits }

// Errors returns the number of bits the lane has flipped.
func (l *LaneErrors) Errors() uint64 { return l.errs }

// Advance carries n more bits and appends to dst the offsets in [0, n) of
// the bits it flips, in increasing order. It allocates only if dst lacks
// capacity.
func (l *LaneErrors) Advance(n uint64, dst []uint64) []uint64 {
	l.bits += n
	var pos uint64
	for pos < n {
		left := n - pos
		if l.mode == modeBurst && l.stay <= left && l.stay <= l.gap {
			// the state changes before the next error
			pos += l.stay
			l.bad = !l.bad
			l.enterState()
			continue
		}
		if l.gap >= left {
			l.gap -= left
			if l.mode == modeBurst {
				l.stay -= left
			}
			return dst
		}
		pos += l.gap
		dst = append(dst, pos)
		l.errs++
		if l.mode == modeBurst {
			l.stay -= l.gap + 1
		}
		pos++
		l.gap = geometricGap(l.rng, l.currentBER())
		if l.mode == modeBurst && l.stay == 0 {
			l.bad = !l.bad
			l.enterState()
		}
	}
	return dst
}

func (l *LaneErrors) currentBER() float64 {
	switch l.mode {
	case modeFailed:
		return FailedLaneBER
	case modeBurst:
		if l.bad {
			return l.ge.BadBER
		}
		return l.ge.GoodBER
	}
	return l.ber
}
