package rtlmodel

import "math/bits"

// RNG is a small deterministic random stream (xoshiro256**, seeded by
// SplitMix64). Its output depends only on the seed and the stream name, on
// every platform and Go version, so traces are reproducible.
type RNG struct{ s [4]uint64 }

// NewRNG derives a stream from a seed and a name (a component path).
func NewRNG(seed uint64, name string) *RNG {
	// FNV-1a of the name, mixed with the seed through SplitMix64.
	h := uint64(14695981039346656037)
	for i := 0; i < len(name); i++ {
		h ^= uint64(name[i])
		h *= 1099511628211
	}
	x := seed ^ bits.RotateLeft64(h, 31)
	r := &RNG{}
	for i := range r.s {
		x += 0x9e3779b97f4a7c15
		z := x
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		r.s[i] = z ^ (z >> 31)
	}
	return r
}

// Uint64 returns 64 random bits.
func (r *RNG) Uint64() uint64 {
	s := &r.s
	out := bits.RotateLeft64(s[1]*5, 7) * 9
	t := s[1] << 17
	s[2] ^= s[0]
	s[3] ^= s[1]
	s[1] ^= s[2]
	s[0] ^= s[3]
	s[2] ^= t
	s[3] = bits.RotateLeft64(s[3], 45)
	return out
}

// Uint64n returns a uniform value in [0, n) (Lemire's method); n > 0.
func (r *RNG) Uint64n(n uint64) uint64 {
	hi, lo := bits.Mul64(r.Uint64(), n)
	if lo < n {
		thresh := -n % n
		for lo < thresh {
			hi, lo = bits.Mul64(r.Uint64(), n)
		}
	}
	return hi
}

// Intn returns a uniform int in [0, n); n > 0.
func (r *RNG) Intn(n int) int { return int(r.Uint64n(uint64(n))) }

// Float64 returns a uniform value in [0, 1) with 53 random bits.
func (r *RNG) Float64() float64 { return float64(r.Uint64()>>11) / (1 << 53) }

// Bernoulli returns true with probability p.
func (r *RNG) Bernoulli(p float64) bool { return r.Float64() < p }

// Shuffle permutes n elements with swap (Fisher-Yates).
func (r *RNG) Shuffle(n int, swap func(i, j int)) {
	for i := n - 1; i > 0; i-- {
		swap(i, r.Intn(i+1))
	}
}
