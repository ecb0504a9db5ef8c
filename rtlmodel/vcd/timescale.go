package vcd

import (
	"fmt"
	"strings"
)

// TimeUnit is the unit part of a $timescale: s, ms, us, ns, ps or fs.
type TimeUnit uint8

// The time units of IEEE 1364-2005 section 18.2.3.
const (
	Second TimeUnit = iota + 1
	Millisecond
	Microsecond
	Nanosecond
	Picosecond
	Femtosecond
)

var unitNames = [...]string{"", "s", "ms", "us", "ns", "ps", "fs"}

// String returns the unit as written in a VCD file ("ns").
func (u TimeUnit) String() string {
	if int(u) < len(unitNames) && u != 0 {
		return unitNames[u]
	}
	return fmt.Sprintf("TimeUnit(%d)", uint8(u))
}

// Exponent returns the unit as a power of ten of one second (ns gives -9).
func (u TimeUnit) Exponent() int {
	return -3 * (int(u) - 1)
}

// Timescale is the duration of one VCD time unit: Magnitude (1, 10 or 100)
// times Unit. The zero value means the file gave no $timescale.
type Timescale struct {
	// Magnitude is 1, 10 or 100.
	Magnitude int
	// Unit is the unit the magnitude counts.
	Unit TimeUnit
}

// IsZero reports whether t is the zero value (no timescale given).
func (t Timescale) IsZero() bool { return t.Magnitude == 0 && t.Unit == 0 }

// Valid reports whether t is one of the eighteen timescales the standard allows.
func (t Timescale) Valid() bool {
	return (t.Magnitude == 1 || t.Magnitude == 10 || t.Magnitude == 100) &&
		t.Unit >= Second && t.Unit <= Femtosecond
}

// String returns the timescale as written in a VCD file ("10ns").
func (t Timescale) String() string {
	return fmt.Sprintf("%d%s", t.Magnitude, t.Unit)
}

// Femtoseconds returns the length of one time unit in femtoseconds
// (1s is 10^15 fs, which fits a uint64). It returns 0 for an invalid timescale.
func (t Timescale) Femtoseconds() uint64 {
	if !t.Valid() {
		return 0
	}
	v := uint64(t.Magnitude)
	for i := Femtosecond; i > t.Unit; i-- {
		v *= 1000
	}
	return v
}

// Seconds returns the length of one time unit in seconds.
func (t Timescale) Seconds() float64 {
	return float64(t.Femtoseconds()) * 1e-15
}

// ParseTimescale parses a timescale such as "1ns", "10 ps" or "100fs".
// Spaces between the number and the unit are allowed, as in the files GHDL
// writes.
func ParseTimescale(s string) (Timescale, error) {
	s = strings.Join(strings.Fields(s), "")
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	var t Timescale
	switch s[:i] {
	case "1":
		t.Magnitude = 1
	case "10":
		t.Magnitude = 10
	case "100":
		t.Magnitude = 100
	default:
		return Timescale{}, fmt.Errorf("vcd: timescale %q: magnitude must be 1, 10 or 100", s)
	}
	unit := strings.ToLower(s[i:])
	for u := Second; u <= Femtosecond; u++ {
		if unitNames[u] == unit {
			t.Unit = u
			return t, nil
		}
	}
	return Timescale{}, fmt.Errorf("vcd: timescale %q: unit must be s, ms, us, ns, ps or fs", s)
}
