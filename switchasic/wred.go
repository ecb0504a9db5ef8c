package switchasic

import "fmt"

// ProbOne is probability 1 in the marking arithmetic: probabilities are
// counted in units of 2^-16, so a 16-bit draw d marks when d < p, and only
// p = ProbOne (reached above Kmax) marks every packet (FACTS 2.1 [R67][R70]).
const ProbOne uint32 = 1 << 16

// WREDConfig is the ECN marking curve of one traffic class, the DCQCN
// congestion point (FACTS 2.1 [R9]): no marks at or below Kmin, a mark
// probability rising linearly from 0 at Kmin to Pmax at Kmax, and every
// packet marked at or above Kmax (FACTS 2.1 [R67][R70]). The depth is the
// instantaneous depth of the egress queue (egress port, class) in bytes,
// as the arriving packet finds it (before it is enqueued).
type WREDConfig struct {
	// Enabled turns marking on for the class.
	Enabled bool
	// KminBytes is the queue depth in bytes at and below which nothing is
	// marked. Default 1,600,000 B: the HPCC artifact's 100 KB·(bw/25G) at
	// 400G (FACTS 2.1 [R13]).
	KminBytes uint64
	// KmaxBytes is the depth in bytes at and above which every ECN-capable
	// packet is marked; it must exceed KminBytes. Default 6,400,000 B:
	// 400 KB·(bw/25G) at 400G (FACTS 2.1 [R13]).
	KmaxBytes uint64
	// PmaxQ is the mark probability just below Kmax in Q0.16 fixed point
	// (unsigned, 16 fraction bits: 65536·Pmax, at most 65535/65536).
	// Default 13107 = 0.2 in Q0.16 rounded down (FACTS 2.1 [R13], Pmax 0.2).
	PmaxQ uint16
}

// Validate checks an enabled curve: Kmax must exceed Kmin, by less than
// 2^48 bytes. An error names the field.
func (w WREDConfig) Validate() error {
	if !w.Enabled {
		return nil
	}
	if w.KmaxBytes <= w.KminBytes {
		return fmt.Errorf("KmaxBytes %d must exceed KminBytes %d", w.KmaxBytes, w.KminBytes)
	}
	if w.KmaxBytes-w.KminBytes >= maxWREDRange {
		return fmt.Errorf("KmaxBytes %d: Kmax − Kmin must be below 2^48 bytes", w.KmaxBytes)
	}
	return nil
}

// WREDCurve is a WREDConfig compiled into the registers a hardware marker
// holds (FACTS 2.1 [R9]): Kmin, Kmax and a slope register with 48 fraction
// bits, rounded up,
//
//	slope = ceil(PmaxQ · 2^48 / (Kmax − Kmin))    (at most 64 bits)
//
// from which the probability of a depth d strictly between Kmin and Kmax,
// in units of 2^-16 (16 bits), is a multiply and a shift, no divider:
//
//	p = (slope · (d − Kmin)) >> 48
//
// With R = Kmax − Kmin, the product is below PmaxQ·2^48 + R < 2^64, and p
// equals the exact floor(PmaxQ·(d − Kmin)/R) whenever R ≤ 2^24 bytes
// (16.7 MB; the rounding error of the slope times d − Kmin stays under
// 1/R); for larger R it may exceed it by one unit.
type WREDCurve struct {
	enabled    bool
	kmin, kmax uint64
	slope      uint64
}

// wredSlopeFracBits is the fraction width of the slope register.
const wredSlopeFracBits = 48

// maxWREDRange is the largest Kmax − Kmin whose slope product fits in 64
// bits.
const maxWREDRange = 1 << wredSlopeFracBits

// NewWREDCurve compiles a validated configuration.
func NewWREDCurve(w WREDConfig) WREDCurve {
	c := WREDCurve{enabled: w.Enabled, kmin: w.KminBytes, kmax: w.KmaxBytes}
	if w.Enabled && w.KmaxBytes > w.KminBytes {
		r := w.KmaxBytes - w.KminBytes
		a := uint64(w.PmaxQ) << wredSlopeFracBits
		c.slope = a / r
		if a%r != 0 {
			c.slope++
		}
	}
	return c
}

// Enabled reports whether the curve marks at all.
func (c WREDCurve) Enabled() bool { return c.enabled }

// Slope returns the slope register, PmaxQ·2^48/(Kmax−Kmin) rounded up.
func (c WREDCurve) Slope() uint64 { return c.slope }

// Probability returns the mark probability at a queue depth of depthBytes
// in units of 2^-16: 0 at or below Kmin (or when disabled), linear up to
// Pmax below Kmax, ProbOne at or above Kmax (FACTS 2.1 [R9][R67][R70]).
func (c WREDCurve) Probability(depthBytes uint64) uint32 {
	switch {
	case !c.enabled || depthBytes <= c.kmin:
		return 0
	case depthBytes >= c.kmax:
		return ProbOne
	}
	return uint32((c.slope * (depthBytes - c.kmin)) >> wredSlopeFracBits)
}

// Mark is the marking decision for one packet: draw is a uniform 16-bit
// value (LFSR.Draw16) and the packet is marked when draw < p.
func (c WREDCurve) Mark(depthBytes uint64, draw uint16) bool {
	return uint32(draw) < c.Probability(depthBytes)
}
