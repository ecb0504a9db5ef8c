package serdes

import (
	"math"
	"math/rand/v2"
)

// splitmix64 is the SplitMix64 finaliser, used to spread a seed and a
// stream index into two well-mixed 64-bit words.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// DeriveSeed returns the seed of sub-stream index of seed, so that every
// lane, codec path or sampler of one run draws from its own reproducible
// stream (ARCHITECTURE "Determinism").
func DeriveSeed(seed, index uint64) uint64 {
	return splitmix64(splitmix64(seed) ^ splitmix64(index+0x632be59bd9b4e019))
}

// NewRNG returns a PCG generator fully determined by seed.
func NewRNG(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(splitmix64(seed), splitmix64(seed^0xda942042e4dd58b5)))
}

// geometricGap draws the number of successes before the first failure of a
// Bernoulli process whose per-trial failure probability is p: the count of
// clean bits before the next errored bit at bit error ratio p. p <= 0 gives
// math.MaxUint64 (never); p >= 1 gives 0. It costs one uniform draw and a
// logarithm whatever the gap, which is what makes skipping cheap at low BER.
func geometricGap(rng *rand.Rand, p float64) uint64 {
	if p <= 0 {
		return math.MaxUint64
	}
	if p >= 1 {
		return 0
	}
	u := 1 - rng.Float64() // (0, 1]
	g := math.Floor(math.Log(u) / math.Log1p(-p))
	if g >= float64(math.MaxUint64/2) {
		return math.MaxUint64 / 2
	}
	return uint64(g)
}
