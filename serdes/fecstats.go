package serdes

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"
)

// DesignPreFECBER is the pre-FEC bit error ratio design point of
// RS(544,514) PHYs, 2.4e-4, which FEC brings below 1e-12. FACTS 3 [R28].
const DesignPreFECBER = 2.4e-4

// SymbolErrorProb returns the probability that a 10-bit symbol holds at
// least one error when bits err independently at ber: 1-(1-ber)^10,
// computed without cancellation as -expm1(10*log1p(-ber)).
func SymbolErrorProb(ber float64) float64 {
	return -math.Expm1(GFBits * math.Log1p(-ber))
}

// BinomialTail returns P(X > t) for X ~ Binomial(n, p): the probability that
// more than t of n symbols err. It sums the upper tail term by term from
// gonum's log-probabilities, largest term first, never forming 1-CDF, so it
// keeps full relative precision down to the smallest values (about 1e-13
// at the design point, far below where 1-CDF would round to zero).
func BinomialTail(n, t int, p float64) float64 {
	if t >= n || p <= 0 {
		return 0
	}
	if p >= 1 {
		return 1
	}
	b := distuv.Binomial{N: float64(n), P: p}
	maxLog := math.Inf(-1)
	for k := t + 1; k <= n; k++ {
		maxLog = math.Max(maxLog, b.LogProb(float64(k)))
	}
	var sum float64
	for k := t + 1; k <= n; k++ {
		sum += math.Exp(b.LogProb(float64(k)) - maxLog)
	}
	return math.Min(1, sum*math.Exp(maxLog))
}

// CodewordFailureProb returns the probability that an RS(544,514) codeword
// is lost at pre-FEC bit error ratio ber with independent bit errors: more
// than t = 15 of its 544 symbols err (the decoder then flags it or, very
// rarely, miscorrects it). FACTS 3 [R23].
func CodewordFailureProb(ber float64) float64 {
	return BinomialTail(RS544N, RS544T, SymbolErrorProb(ber))
}

// DesignPointCodewordFailure returns CodewordFailureProb at the 2.4e-4
// design point (FACTS 3 [R28]), for the budget report: about 8.2e-13 per
// codeword.
func DesignPointCodewordFailure() float64 { return CodewordFailureProb(DesignPreFECBER) }

// FailureSampler decides, codeword by codeword, which codewords are lost,
// each independently with a fixed probability: the statistical stand-in for
// the codec in performance runs. Like LaneErrors it skips: one geometric
// draw per failure, not one per codeword. Built from a pre-FEC BER it uses
// CodewordFailureProb, so its long-run rate equals what CodecPath measures
// with independent bit errors.
type FailureSampler struct {
	rng      *rand.Rand
	p        float64
	gap      uint64 // clean codewords before the next failure
	seen     uint64
	failures uint64
}

// NewFailureSampler returns a sampler losing each codeword with
// probability p.
func NewFailureSampler(seed uint64, p float64) (*FailureSampler, error) {
	if !(p >= 0 && p <= 1) {
		return nil, fmt.Errorf("serdes: codeword failure probability %v is not a probability", p)
	}
	s := &FailureSampler{rng: NewRNG(seed), p: p}
	s.gap = geometricGap(s.rng, p)
	return s, nil
}

// NewFailureSamplerBER returns a sampler for RS(544,514) at pre-FEC bit
// error ratio ber with independent bit errors.
func NewFailureSamplerBER(seed uint64, ber float64) (*FailureSampler, error) {
	if !(ber >= 0 && ber <= 1) {
		return nil, fmt.Errorf("serdes: BER %v is not a probability", ber)
	}
	return NewFailureSampler(seed, CodewordFailureProb(ber))
}

// Prob returns the per-codeword failure probability.
func (s *FailureSampler) Prob() float64 { return s.p }

// Next reports whether the next codeword is lost.
func (s *FailureSampler) Next() bool { return s.Failures(1) == 1 }

// Failures returns how many of the next n codewords are lost.
func (s *FailureSampler) Failures(n uint64) uint64 {
	var f uint64
	s.seen += n
	for {
		if s.gap >= n {
			s.gap -= n
			s.failures += f
			return f
		}
		n -= s.gap + 1
		f++
		s.gap = geometricGap(s.rng, s.p)
	}
}

// FrameHit reports whether a frame spanning the next n codewords loses any
// of them (its FCS then fails); it consumes the n codewords.
func (s *FailureSampler) FrameHit(n uint64) bool { return s.Failures(n) > 0 }

// Codewords returns the number of codewords decided so far.
func (s *FailureSampler) Codewords() uint64 { return s.seen }

// Lost returns the number of codewords lost so far.
func (s *FailureSampler) Lost() uint64 { return s.failures }

// CodewordsSpanned returns how many codewords a run of nbits message bits
// starting at message bit offset start touches, codewords carrying
// RS544MessageBits each: the codewords whose loss takes the frame with them.
func CodewordsSpanned(start, nbits uint64) uint64 {
	if nbits == 0 {
		return 0
	}
	first := start / RS544MessageBits
	last := (start + nbits - 1) / RS544MessageBits
	return last - first + 1
}
