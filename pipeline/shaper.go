package pipeline

import (
	"fmt"
	"math/big"
	"math/bits"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// Shaper is a token bucket in exact integer arithmetic. Tokens (bytes)
// flow in at an exact rational rate up to the bucket depth; a packet
// conforms when the bucket holds at least its size, and sending it takes
// that many tokens out.
//
// The bucket is kept as the time at which it will be full again, in whole
// picoseconds plus a remainder in 1/n ps (one byte lasting exactly p/n ps),
// which is the virtual-time form of the token bucket (the GCRA of ITU-T
// I.371): no floating point, no rounding, and no drift however many
// packets pass. A new shaper's bucket is full at time 0.
//
// A Shaper is not a kernel component: it is state inside the component
// that shapes, used from its Eval. NextConformTime gives the exact time at
// which a packet will conform, so that component can sleep until the first
// edge at or after it (Domain.FirstEdgeAtOrAfter) instead of polling.
// Tokens that arrive while the bucket is full are lost, as in any token
// bucket: a bucket exactly one packet deep that is served only at clock
// edges loses the time from the conform time to the edge, so give it the
// slack of at least one more packet when it must hold a rate exactly.
type Shaper struct {
	p, n  uint64   // one byte lasts p/n ps, p/n in lowest terms
	depth uint64   // bucket depth in bytes
	tau   span     // time to fill the whole bucket
	full  span     // time at which the bucket is full again
	rate  *big.Rat // bits per second
}

// span is a time of ps + rem/n picoseconds, rem < n.
type span struct{ ps, rem uint64 }

func (a span) less(b span) bool { return a.ps < b.ps || (a.ps == b.ps && a.rem < b.rem) }

// NewShaper returns a shaper of rate num/den bits per second with a bucket
// of depth bytes. The rate must be positive and depth at least 1; the time
// of one byte, 8e12·den/num ps, must reduce to a fraction whose terms fit
// in 64 bits (every rate of the form a/b b/s with b up to 2^20 does).
func NewShaper(num, den, depth uint64) (*Shaper, error) {
	if num == 0 || den == 0 {
		return nil, fmt.Errorf("shaper: rate %d/%d b/s; the rate must be positive", num, den)
	}
	r := new(big.Rat).SetFrac(new(big.Int).SetUint64(num), new(big.Int).SetUint64(den))
	return NewShaperRat(r, depth)
}

// NewShaperRat is NewShaper with the rate in bits per second as a big.Rat.
func NewShaperRat(bitsPerSecond *big.Rat, depth uint64) (*Shaper, error) {
	if bitsPerSecond == nil || bitsPerSecond.Sign() <= 0 {
		return nil, fmt.Errorf("shaper: the rate must be positive")
	}
	if depth == 0 {
		return nil, fmt.Errorf("shaper: bucket depth of 0 bytes; it must hold at least one byte")
	}
	// one byte lasts 8 bits × 1e12 ps/s ÷ rate
	perByte := new(big.Rat).SetInt64(8e12)
	perByte.Quo(perByte, bitsPerSecond)
	p, n := perByte.Num(), perByte.Denom()
	if !p.IsUint64() || !n.IsUint64() {
		return nil, fmt.Errorf("shaper: rate %s b/s: one byte lasts %s ps, beyond 64-bit terms", bitsPerSecond.RatString(), perByte.RatString())
	}
	s := &Shaper{p: p.Uint64(), n: n.Uint64(), depth: depth, rate: new(big.Rat).Set(bitsPerSecond)}
	if hi, _ := bits.Mul64(depth, s.p); hi >= s.n {
		return nil, fmt.Errorf("shaper: bucket of %d bytes at %s b/s lasts more than 2^64 ps", depth, bitsPerSecond.RatString())
	}
	s.tau = s.timeOf(depth)
	return s, nil
}

// SetRate changes the rate at now and keeps the tokens in the bucket: the
// time to refill what is missing is recomputed at the new rate, rounded up
// to the new remainder unit (so a change never adds tokens; it may take
// less than one byte's worth). It uses big arithmetic and allocates: rate
// changes are control events (a congestion-control update), not per-packet
// work. On error the shaper is unchanged.
func (s *Shaper) SetRate(now rtlmodel.Time, bitsPerSecond *big.Rat) error {
	ns, err := NewShaperRat(bitsPerSecond, s.depth)
	if err != nil {
		return err
	}
	if (span{uint64(now), 0}).less(s.full) {
		// missing bytes = ((full.ps-now)·n + rem) / p; at the new rate they
		// last missing·p'/n' ps, that is missing·p' units of 1/n' ps
		x := new(big.Int).SetUint64(s.full.ps - uint64(now))
		x.Mul(x, new(big.Int).SetUint64(s.n))
		x.Add(x, new(big.Int).SetUint64(s.full.rem))
		x.Mul(x, new(big.Int).SetUint64(ns.p))
		pOld := new(big.Int).SetUint64(s.p)
		m := new(big.Int)
		x.QuoRem(x, pOld, m)
		if m.Sign() > 0 {
			x.Add(x, big.NewInt(1))
		}
		q, r := new(big.Int).QuoRem(x, new(big.Int).SetUint64(ns.n), new(big.Int))
		if !q.IsUint64() || q.Uint64() > ^uint64(0)-uint64(now) {
			return fmt.Errorf("shaper: at %s b/s the bucket would refill after the end of time", bitsPerSecond.RatString())
		}
		ns.full = span{uint64(now) + q.Uint64(), r.Uint64()}
	} else {
		ns.full = span{uint64(now), 0}
	}
	*s = *ns
	return nil
}

// Rate returns the rate in bits per second.
func (s *Shaper) Rate() *big.Rat { return new(big.Rat).Set(s.rate) }

// Depth returns the bucket depth in bytes.
func (s *Shaper) Depth() uint64 { return s.depth }

// ByteTime returns the time of one byte as p/n ps in lowest terms.
func (s *Shaper) ByteTime() (p, n uint64) { return s.p, s.n }

// timeOf returns the exact time of b bytes.
func (s *Shaper) timeOf(b uint64) span {
	hi, lo := bits.Mul64(b, s.p)
	if hi >= s.n {
		panic(fmt.Sprintf("pipeline: shaper: %d bytes last more than 2^64 ps", b))
	}
	q, r := bits.Div64(hi, lo, s.n)
	return span{q, r}
}

func (s *Shaper) add(a, b span) span {
	a.ps += b.ps
	a.rem += b.rem
	if a.rem >= s.n || a.rem < b.rem {
		a.rem -= s.n
		a.ps++
	}
	return a
}

// Conform reports whether a packet of size bytes conforms at now: the
// bucket holds at least that many tokens. A packet larger than the bucket
// never conforms.
func (s *Shaper) Conform(now rtlmodel.Time, size uint64) bool {
	if size > s.depth {
		return false
	}
	x := s.add(s.full, s.timeOf(size))
	return !span{uint64(now) + s.tau.ps, s.tau.rem}.less(x)
}

// Consume takes size tokens out of the bucket at now. It does not check
// conformance: a packet sent anyway (for example one admitted by another
// rule) drives the bucket below zero, and later packets wait for it.
func (s *Shaper) Consume(now rtlmodel.Time, size uint64) {
	if s.full.less(span{uint64(now), 0}) {
		s.full = span{uint64(now), 0}
	}
	s.full = s.add(s.full, s.timeOf(size))
}

// TryConsume consumes size tokens and returns true when the packet
// conforms at now; otherwise it changes nothing and returns false.
func (s *Shaper) TryConsume(now rtlmodel.Time, size uint64) bool {
	if !s.Conform(now, size) {
		return false
	}
	s.Consume(now, size)
	return true
}

// NextConformTime returns the earliest time t >= now, in whole ps, at which
// a packet of size bytes conforms if nothing else is consumed before then;
// rtlmodel.Forever when the packet is larger than the bucket.
func (s *Shaper) NextConformTime(now rtlmodel.Time, size uint64) rtlmodel.Time {
	if size > s.depth {
		return rtlmodel.Forever
	}
	x := s.add(s.full, s.timeOf(size))
	if !(span{uint64(now) + s.tau.ps, s.tau.rem}).less(x) {
		return now
	}
	// x - tau > now: its ceiling in whole ps
	t := x.ps - s.tau.ps
	if x.rem > s.tau.rem {
		t++
	}
	return rtlmodel.Time(t)
}

// Full returns the time at which the bucket is full again, rounded up to
// a whole ps (a time in the past means it is full now).
func (s *Shaper) Full() rtlmodel.Time {
	if s.full.rem > 0 {
		return rtlmodel.Time(s.full.ps + 1)
	}
	return rtlmodel.Time(s.full.ps)
}

// Tokens returns the tokens in the bucket at now, rounded down to a whole
// byte; it is negative when more was consumed than the bucket held.
func (s *Shaper) Tokens(now rtlmodel.Time) int64 {
	if !(span{uint64(now), 0}).less(s.full) {
		return int64(s.depth)
	}
	// missing bytes = (full - now) / (p/n) = ((full.ps-now)·n + rem) / p, rounded up
	hi, lo := bits.Mul64(s.full.ps-uint64(now), s.n)
	var c uint64
	lo, c = bits.Add64(lo, s.full.rem, 0)
	hi += c
	if hi >= s.p {
		return int64(s.depth) - int64(^uint64(0)>>1)
	}
	q, r := bits.Div64(hi, lo, s.p)
	if r > 0 {
		q++
	}
	return int64(s.depth) - int64(q)
}

// Reset fills the bucket as of time 0.
func (s *Shaper) Reset() { s.full = span{} }
