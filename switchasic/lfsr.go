package switchasic

import "fmt"

// LFSR32Mask is the Galois feedback mask of the default 32-bit register:
// the polynomial x^32 + x^22 + x^2 + x + 1, a maximal-length (primitive)
// tap set listed in Xilinx XAPP052 (taps 32, 22, 2, 1). In
// the right-shifting Galois form, the term x^e sets bit e-1 of the mask,
// so the mask is bits 31, 21, 1 and 0. lfsr_test.go proves the period is
// 2^32 - 1 by the order of the transition matrix. This is the random
// source of WRED/ECN marking (FACTS 2.1 [R9]), as a hardware marker would
// use; the polynomial is a model choice (E), not a published switch's.
const LFSR32Mask uint32 = 0x80200003

// LFSR is a right-shifting Galois linear-feedback shift register of 8 to
// 32 bits, the random source hardware uses for WRED/ECN marking decisions
// (FACTS 2.1 [R9]: marking probability compared against a random draw).
//
// One step: the low bit is the output; the state shifts right by one and,
// when the output was 1, is XORed with the mask. Eight steps are taken at
// once through a 256-entry table (the same construction as a byte-wise
// reflected CRC), which is what an unrolled hardware next-state network
// computes in one cycle. A maximal-length mask visits all 2^w - 1 non-zero
// states; the all-zero state is a lock-up and cannot be seeded.
//
// An LFSR is plain state, not a kernel component; it allocates nothing per
// draw.
type LFSR struct {
	state uint32
	mask  uint32
	width uint8
	table [256]uint32
}

// NewLFSR returns a register of width bits (8 to 32) with the Galois mask
// (bit width-1 must be set, no bit at or above width) and a non-zero seed
// that fits in width bits.
func NewLFSR(width int, mask, seed uint32) (*LFSR, error) {
	if width < 8 || width > 32 {
		return nil, fmt.Errorf("lfsr: width %d bits; it must be 8 to 32", width)
	}
	top := uint32(1) << (width - 1)
	limit := uint64(1) << width
	if mask&top == 0 || uint64(mask) >= limit {
		return nil, fmt.Errorf("lfsr: mask %#x for width %d: bit %d must be set and nothing above it", mask, width, width-1)
	}
	if seed == 0 || uint64(seed) >= limit {
		return nil, fmt.Errorf("lfsr: seed %#x for width %d: it must be non-zero and fit in the width", seed, width)
	}
	l := &LFSR{state: seed, mask: mask, width: uint8(width)}
	for b := range l.table {
		s := uint32(b)
		for range 8 {
			if s&1 != 0 {
				s = s>>1 ^ mask
			} else {
				s >>= 1
			}
		}
		l.table[b] = s
	}
	return l, nil
}

// NewLFSR32 returns the default 32-bit register (LFSR32Mask) seeded from a
// 64-bit seed: the seed's two halves XORed, and 1 if that is zero.
func NewLFSR32(seed uint64) *LFSR {
	s := uint32(seed) ^ uint32(seed>>32)
	if s == 0 {
		s = 1
	}
	l, err := NewLFSR(32, LFSR32Mask, s)
	if err != nil {
		panic(err) // the constant mask and a non-zero seed are always valid
	}
	return l
}

// State returns the register's contents.
func (l *LFSR) State() uint32 { return l.state }

// Width returns the register width in bits.
func (l *LFSR) Width() int { return int(l.width) }

// Step advances the register one bit and returns the output bit.
func (l *LFSR) Step() uint32 {
	out := l.state & 1
	l.state >>= 1
	if out != 0 {
		l.state ^= l.mask
	}
	return out
}

// Step8 advances the register eight steps in one table look-up. The
// register is linear, so eight steps of the state are eight shifts of its
// upper bits XORed with eight steps of its low byte alone, and the table
// holds the latter for every byte.
func (l *LFSR) Step8() {
	l.state = l.state>>8 ^ l.table[uint8(l.state)]
}

// Draw16 is one marking draw: it advances the register 16 steps (two
// Step8) and returns the low 16 bits of the new state. Over a full period
// of a maximal 32-bit register every 16-bit value is returned 2^16 times
// except 0, returned 2^16 - 1 times (16 is coprime with 2^32 - 1, so
// 16-step strides visit every non-zero state once), so a draw is uniform
// on [0, 2^16) to within 2^-32. The width must be at least 16 bits.
func (l *LFSR) Draw16() uint16 {
	l.Step8()
	l.Step8()
	return uint16(l.state)
}
