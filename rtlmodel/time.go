package rtlmodel

import (
	"fmt"
	"math"
)

// Time is simulated time in picoseconds.
type Time uint64

// Forever is a Time later than any the simulation reaches.
const Forever Time = math.MaxUint64

// Common durations.
const (
	Picosecond  Time = 1
	Nanosecond  Time = 1000
	Microsecond Time = 1000 * Nanosecond
	Millisecond Time = 1000 * Microsecond
	Second      Time = 1000 * Millisecond
)

// Nanoseconds returns t in nanoseconds as a float, for reports.
func (t Time) Nanoseconds() float64 { return float64(t) / 1e3 }

// String prints t with a unit that keeps it readable.
func (t Time) String() string {
	switch {
	case t == Forever:
		return "forever"
	case t >= Second:
		return fmt.Sprintf("%.6gs", float64(t)/1e12)
	case t >= Millisecond:
		return fmt.Sprintf("%.6gms", float64(t)/1e9)
	case t >= Microsecond:
		return fmt.Sprintf("%.6gus", float64(t)/1e6)
	case t >= Nanosecond:
		return fmt.Sprintf("%.6gns", float64(t)/1e3)
	}
	return fmt.Sprintf("%dps", uint64(t))
}
