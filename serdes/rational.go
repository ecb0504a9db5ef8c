package serdes

import (
	"fmt"
	"math/big"
	"math/bits"
)

// Rat is an exact non-negative rational on uint64 numerator and
// denominator, always kept in lowest terms with a positive denominator. It
// is small and allocation-free for the rate arithmetic of the PCS/FEC chain
// (ARCHITECTURE "The kernel contract": rates are exact rationals). An
// operation whose result does not fit in 64 bits panics; Big converts to
// math/big for anything larger.
type Rat struct {
	num, den uint64
}

func gcd(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// NewRat returns num/den in lowest terms. It panics if den is zero.
func NewRat(num, den uint64) Rat {
	if den == 0 {
		panic("serdes: rational with zero denominator")
	}
	g := gcd(num, den)
	if g == 0 {
		return Rat{0, 1}
	}
	return Rat{num / g, den / g}
}

// IntRat returns n/1.
func IntRat(n uint64) Rat { return Rat{n, 1} }

// Num returns the numerator in lowest terms.
func (r Rat) Num() uint64 { return r.num }

// Den returns the denominator in lowest terms (1 for the zero value).
func (r Rat) Den() uint64 {
	if r.den == 0 {
		return 1
	}
	return r.den
}

func mulChecked(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	if hi != 0 {
		panic(fmt.Sprintf("serdes: rational overflow multiplying %d by %d", a, b))
	}
	return lo
}

// Mul returns r*s.
func (r Rat) Mul(s Rat) Rat {
	rd, sd := r.Den(), s.Den()
	g1, g2 := gcd(r.num, sd), gcd(s.num, rd)
	if g1 == 0 || g2 == 0 {
		return Rat{0, 1}
	}
	return Rat{mulChecked(r.num/g1, s.num/g2), mulChecked(rd/g2, sd/g1)}
}

// Div returns r/s; it panics if s is zero.
func (r Rat) Div(s Rat) Rat {
	if s.num == 0 {
		panic("serdes: rational division by zero")
	}
	return r.Mul(Rat{s.Den(), s.num})
}

// Add returns r+s.
func (r Rat) Add(s Rat) Rat {
	rd, sd := r.Den(), s.Den()
	g := gcd(rd, sd)
	den := mulChecked(rd/g, sd)
	a, b := mulChecked(r.num, sd/g), mulChecked(s.num, rd/g)
	sum, carry := bits.Add64(a, b, 0)
	if carry != 0 {
		panic("serdes: rational overflow in addition")
	}
	return NewRat(sum, den)
}

// Sub returns r-s; it panics if the result would be negative.
func (r Rat) Sub(s Rat) Rat {
	if r.Cmp(s) < 0 {
		panic("serdes: negative rational")
	}
	rd, sd := r.Den(), s.Den()
	g := gcd(rd, sd)
	den := mulChecked(rd/g, sd)
	return NewRat(mulChecked(r.num, sd/g)-mulChecked(s.num, rd/g), den)
}

// Cmp returns -1, 0 or +1 as r is less than, equal to or greater than s.
func (r Rat) Cmp(s Rat) int {
	ah, al := bits.Mul64(r.num, s.Den())
	bh, bl := bits.Mul64(s.num, r.Den())
	switch {
	case ah < bh || (ah == bh && al < bl):
		return -1
	case ah == bh && al == bl:
		return 0
	}
	return 1
}

// Equal reports whether r == s.
func (r Rat) Equal(s Rat) bool { return r.Cmp(s) == 0 }

// IsInt reports whether r is a whole number.
func (r Rat) IsInt() bool { return r.Den() == 1 }

// Float64 returns the nearest float64, for reports only.
func (r Rat) Float64() float64 {
	f, _ := r.Big().Float64()
	return f
}

// Big returns r as a math/big rational.
func (r Rat) Big() *big.Rat {
	return new(big.Rat).SetFrac(new(big.Int).SetUint64(r.num), new(big.Int).SetUint64(r.Den()))
}

// String formats r as "num/den", or "num" when whole.
func (r Rat) String() string {
	if r.IsInt() {
		return fmt.Sprintf("%d", r.num)
	}
	return fmt.Sprintf("%d/%d", r.num, r.Den())
}

// ratFromBig converts a non-negative big rational (in lowest terms, as
// math/big keeps them) to a Rat; it panics if either part exceeds 64 bits.
func ratFromBig(b *big.Rat) Rat {
	n, d := b.Num(), b.Denom()
	if n.Sign() < 0 || !n.IsUint64() || !d.IsUint64() {
		panic(fmt.Sprintf("serdes: %v does not fit a 64-bit rational", b))
	}
	return Rat{n.Uint64(), d.Uint64()}
}
