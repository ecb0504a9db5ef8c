package serdes

import "fmt"

// Interleave is the FEC symbol interleave depth: 1 sends each codeword's
// symbols alone; 2 interleaves the symbols of two codewords, as the
// 400GBASE-R RS-FEC does (FACTS 3 "400GBASE-R FEC interleave", tag U via
// [R64]). Deeper interleave spreads a burst over more codewords and costs
// fill latency in proportion.
type Interleave uint8

// The interleave depths the model supports.
const (
	InterleaveNone Interleave = 1
	InterleaveTwo  Interleave = 2
)

// NewInterleave returns the interleave of depth 1 or 2.
func NewInterleave(depth int) (Interleave, error) {
	if depth != 1 && depth != 2 {
		return 0, fmt.Errorf("serdes: FEC interleave depth must be 1 or 2, not %d", depth)
	}
	return Interleave(depth), nil
}

// Depth returns the number of codewords interleaved.
func (i Interleave) Depth() int { return int(i) }

// FillBits returns the bits the receiver must hold before it can finish
// decoding: Depth codewords of 5440 bits. FACTS 3 "FEC latency: codeword
// fill" (E).
func (i Interleave) FillBits() uint64 { return uint64(i) * RS544CodewordBits }

// FillTime returns the exact codeword fill latency in picoseconds at a line
// rate: 51.2 ns for one codeword at 106.25 Gb/s, 12.8 ns at 425 Gb/s and
// 25.6 ns for a two-codeword interleave at 425 Gb/s. FACTS 3 (E).
func (i Interleave) FillTime(line Rate) Rat { return line.SerialTime(i.FillBits()) }

// BurstSymbols returns the longest run of consecutive symbols of the
// interleaved stream that is always corrected: Depth x t, each codeword
// taking every Depth-th symbol.
func (i Interleave) BurstSymbols() int { return int(i) * RS544T }

// BurstBits returns the longest burst of consecutive bit errors on the
// interleaved symbol stream that is always corrected whatever its alignment:
// a burst of b bits touches at most ceil((b-1)/10)+1 symbols, so
// b = 10 x (Depth x t - 1) + 1: 141 bits for depth 1, 291 for depth 2.
func (i Interleave) BurstBits() int { return GFBits*(i.BurstSymbols()-1) + 1 }
