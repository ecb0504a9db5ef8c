package serdes

import (
	"fmt"
	"math/big"
	"math/bits"
	"strconv"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// Rate is an exact bit rate in bits per second.
type Rate struct {
	bps Rat
}

// RateOf returns the rate of r bits per second.
func RateOf(r Rat) Rate { return Rate{r} }

// RateBPS returns a whole rate of n bits per second.
func RateBPS(n uint64) Rate { return Rate{IntRat(n)} }

// Gbps is 1e9 b/s, the unit of FACTS ("1 Gb/s = 1e9 b/s").
const Gbps = 1_000_000_000

// BitsPerSecond returns the rate as an exact rational.
func (r Rate) BitsPerSecond() Rat { return r.bps }

// Scale returns the rate multiplied by an exact ratio.
func (r Rate) Scale(f Rat) Rate { return Rate{r.bps.Mul(f)} }

// Equal reports whether two rates are exactly equal.
func (r Rate) Equal(s Rate) bool { return r.bps.Equal(s.bps) }

// GbpsFloat returns the rate in Gb/s as a float64, for reports only.
func (r Rate) GbpsFloat() float64 { return r.bps.Float64() / Gbps }

// String formats the rate in Gb/s, e.g. "106.25 Gb/s".
func (r Rate) String() string {
	return strconv.FormatFloat(r.GbpsFloat(), 'f', -1, 64) + " Gb/s"
}

// psPerSecond is the number of picoseconds in a second; model time is
// uint64 picoseconds (ARCHITECTURE "The kernel contract").
const psPerSecond = 1_000_000_000_000

// SerialTime returns the exact time to serialise nbits at this rate, as a
// rational number of picoseconds.
func (r Rate) SerialTime(nbits uint64) Rat {
	if r.bps.num == 0 {
		panic("serdes: serialisation at zero rate")
	}
	t := new(big.Rat).SetFrac(new(big.Int).SetUint64(nbits), big.NewInt(1))
	t.Mul(t, big.NewRat(psPerSecond, 1))
	t.Quo(t, r.bps.Big())
	return ratFromBig(t)
}

// SerialTimePS returns the time to serialise nbits at this rate as whole
// picoseconds plus a remainder: the exact time is ps + rem/n ps, n being
// r.BitsPerSecond().Num().
func (r Rate) SerialTimePS(nbits uint64) (ps, rem uint64) {
	s := NewSerializer(r)
	ps = s.Advance(nbits)
	return ps, s.rem
}

// Serializer converts bit counts into elapsed picoseconds at one exact rate
// and carries the fractional picosecond from call to call, so the sum of
// what it returns over any number of frames equals the exact total rounded
// down, never drifting by a cycle. This is what a link needs for the
// serialisation of back-to-back frames.
type Serializer struct {
	// one bit lasts k/num ps: k = 1e12 * den for a rate num/den b/s (the
	// rate is num / (k / 1e12) b/s, so it needs no field of its own)
	k, num uint64
	rem    uint64 // carried remainder, in units of 1/num ps
	bits   uint64 // bits serialised so far
}

// NewSerializer returns a serializer at rate r. It panics for a zero rate or
// one whose denominator exceeds 1.8e7 (no rate in FACTS comes close).
func NewSerializer(r Rate) *Serializer {
	if r.bps.num == 0 {
		panic("serdes: serialisation at zero rate")
	}
	hi, k := bits.Mul64(psPerSecond, r.bps.Den())
	if hi != 0 {
		panic(fmt.Sprintf("serdes: rate %v has too large a denominator", r.bps))
	}
	return &Serializer{k: k, num: r.bps.num}
}

// Rate returns the serializer's rate.
func (s *Serializer) Rate() Rate { return Rate{Rat{s.num, s.k / psPerSecond}} }

// Divisor returns the denominator of the carried remainder: the exact time
// since the start is TotalPS + Remainder/Divisor picoseconds.
func (s *Serializer) Divisor() uint64 { return s.num }

// Remainder returns the carried fraction of a picosecond, in units of
// 1/Divisor ps.
func (s *Serializer) Remainder() uint64 { return s.rem }

// Bits returns the number of bits serialised so far.
func (s *Serializer) Bits() uint64 { return s.bits }

// Split returns the time nbits take from a bit boundary: whole
// picoseconds and the fraction, in units of 1/Divisor ps, for AdvanceSplit.
func (s *Serializer) Split(nbits uint64) (ps, rem uint64) {
	hi, lo := bits.Mul64(nbits, s.k)
	if hi >= s.num {
		panic("serdes: serialisation time overflows uint64 picoseconds")
	}
	return bits.Div64(hi, lo, s.num)
}

// AdvanceSplit is Advance for nbits whose Split is ps and rem, without a
// second division: a split made once for a length used again (a wire's
// inter-packet gap, the same after every frame), or made for another use
// too (a frame's, whose ceiling the wire also needs).
func (s *Serializer) AdvanceSplit(nbits, ps, rem uint64) uint64 {
	rem += s.rem // both below num, so at most one carry
	if rem >= s.num {
		rem -= s.num
		ps++
	}
	s.rem = rem
	s.bits += nbits
	return ps
}

// Advance serialises nbits more and returns the whole picoseconds that
// elapse, carrying the fraction into the next call.
func (s *Serializer) Advance(nbits uint64) uint64 {
	hi, lo := bits.Mul64(nbits, s.k)
	var c uint64
	lo, c = bits.Add64(lo, s.rem, 0)
	hi += c
	if hi >= s.num {
		panic("serdes: serialisation time overflows uint64 picoseconds")
	}
	ps, rem := bits.Div64(hi, lo, s.num)
	s.rem = rem
	s.bits += nbits
	return ps
}

// CeilTime returns the time to serialise nbits from a bit boundary, rounded
// up to whole picoseconds, without touching the carried remainder.
func (s *Serializer) CeilTime(nbits uint64) rtlmodel.Time {
	hi, lo := bits.Mul64(nbits, s.k)
	var c uint64
	lo, c = bits.Add64(lo, s.num-1, 0)
	hi += c
	if hi >= s.num {
		panic("serdes: serialisation time overflows uint64 picoseconds")
	}
	q, _ := bits.Div64(hi, lo, s.num)
	return rtlmodel.Time(q)
}

// BytesPerCycle is how many bytes a port at rate r carries in one clock
// period, rounded up: the width a byte-credited link into its PHY must
// sustain.
func (r Rate) BytesPerCycle(period rtlmodel.Time) int {
	num, den := r.bps.Num(), r.bps.Den()*8_000_000_000_000
	hi, lo := bits.Mul64(num, uint64(period))
	q, rem := bits.Div64(hi, lo, den)
	if rem != 0 {
		q++
	}
	return int(q)
}
