package vcd

import (
	"fmt"
	"math"
	"strconv"
)

// ValueKind says what a Value holds.
type ValueKind uint8

// The kinds of value a VCD change can carry.
const (
	// ValueBits is a scalar or vector of four-state (or nine-state) bits.
	ValueBits ValueKind = iota
	// ValueReal is a real number (an r change).
	ValueReal
	// ValueString is a string (an s change, a common extension).
	ValueString
)

// Value is the value of a signal: bits, a real or a string. Its Bits share
// memory with the Reader and stay valid until the next change of the same
// signal.
type Value struct {
	kind ValueKind
	bits []byte
	real float64
	str  []byte
}

// Kind says whether the value holds bits, a real or a string.
func (v Value) Kind() ValueKind { return v.kind }

// Bits returns the bits most significant first, one byte per bit, each one
// of '0', '1', 'x', 'z' or the VHDL values 'u', 'w', 'l', 'h', '-', always
// extended to the signal's width. It is nil for reals and strings.
func (v Value) Bits() []byte { return v.bits }

// Width is the number of bits, 0 for reals and strings.
func (v Value) Width() int { return len(v.bits) }

// Bit returns bit i counting from the least significant bit (i = 0), or 'x'
// when i is out of range.
func (v Value) Bit(i int) byte {
	if i < 0 || i >= len(v.bits) {
		return 'x'
	}
	return v.bits[len(v.bits)-1-i]
}

// IsKnown reports whether every bit is 0 or 1 (false for reals and strings).
func (v Value) IsKnown() bool {
	if v.kind != ValueBits {
		return false
	}
	for _, c := range v.bits {
		if c != '0' && c != '1' {
			return false
		}
	}
	return true
}

// Uint64 returns the bits as an unsigned integer. ok is false when a bit is
// not 0 or 1, when a 1 lies above bit 63, or for reals and strings.
func (v Value) Uint64() (u uint64, ok bool) {
	if v.kind != ValueBits {
		return 0, false
	}
	n := len(v.bits)
	for i, c := range v.bits {
		switch c {
		case '0':
			u <<= 1
		case '1':
			if n-i > 64 {
				return 0, false
			}
			u = u<<1 | 1
		default:
			return 0, false
		}
	}
	return u, true
}

// Real returns a real value; for bits that read as an integer it returns
// that integer, otherwise NaN.
func (v Value) Real() float64 {
	if v.kind == ValueReal {
		return v.real
	}
	if u, ok := v.Uint64(); ok {
		return float64(u)
	}
	return math.NaN()
}

// Text returns the body of a string value, empty otherwise.
func (v Value) Text() string {
	if v.kind != ValueString {
		return ""
	}
	return string(v.str)
}

// String formats the value: the bit string for bits, the shortest decimal
// form for reals, the text for strings.
func (v Value) String() string {
	switch v.kind {
	case ValueReal:
		return strconv.FormatFloat(v.real, 'g', -1, 64)
	case ValueString:
		return string(v.str)
	}
	return string(v.bits)
}

// bitCanon maps every accepted value character to its lower-case form and
// every other byte to 0.
var bitCanon = func() (t [256]byte) {
	for _, c := range "01xzuwlh-" {
		t[c] = byte(c)
	}
	for _, c := range "XZUWLH" {
		t[c] = byte(c) + ('a' - 'A')
	}
	return t
}()

// extendWith returns the character a value starting with c is extended
// with on the left: 1 extends with 0, every other value with itself.
func extendWith(c byte) byte {
	if c == '1' {
		return '0'
	}
	return c
}

// sigValue is a Reader's current value of one signal.
type sigValue struct {
	kind ValueKind
	bits []byte
	real float64
	str  []byte
}

func (s *sigValue) value(width int) Value {
	if s.kind == ValueBits && len(s.bits) != width {
		s.fillX(width)
	}
	return Value{kind: s.kind, bits: s.bits, real: s.real, str: s.str}
}

func (s *sigValue) fillX(width int) {
	if cap(s.bits) < width {
		s.bits = make([]byte, width)
	}
	s.bits = s.bits[:width]
	for i := range s.bits {
		s.bits[i] = 'x'
	}
}

// setBits stores val, extended on the left to width. It returns a
// description of the problem if val has a character that is not a value or
// more significant bits than width allows.
func (s *sigValue) setBits(width int, val []byte) string {
	if len(val) == 0 {
		return "empty vector value"
	}
	if len(val) > width {
		keep := val[len(val)-width:]
		fill := extendWith(bitCanon[keep[0]])
		for _, c := range val[:len(val)-width] {
			if bitCanon[c] != fill {
				return fmt.Sprintf("value of %d bits for a %d-bit signal", len(val), width)
			}
		}
		val = keep
	}
	if cap(s.bits) < width {
		s.bits = make([]byte, width)
	}
	s.kind = ValueBits
	s.bits = s.bits[:width]
	pad := width - len(val)
	fill := extendWith(bitCanon[val[0]])
	for i := 0; i < pad; i++ {
		s.bits[i] = fill
	}
	dst := s.bits[pad:]
	for i, c := range val {
		d := bitCanon[c]
		if d == 0 {
			return fmt.Sprintf("invalid value character %q", c)
		}
		dst[i] = d
	}
	return ""
}
