package serdes

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPackRoundTrip(t *testing.T) {
	rng := NewRNG(7)
	for _, n := range []int{0, 1, 3, 4, 514, RS544N} {
		syms := make([]uint16, n)
		for i := range syms {
			syms[i] = uint16(rng.IntN(GFSize))
		}
		packed := make([]byte, PackedLen(n))
		PackSymbols(packed, syms)
		got := make([]uint16, n)
		UnpackSymbols(got, packed)
		require.Equal(t, syms, got)

		bitsBuf := make([]byte, n*GFBits)
		SymbolsToBits(bitsBuf, syms)
		for i := range bitsBuf {
			require.Equal(t, (packed[i/8]>>(i%8))&1, bitsBuf[i], "bit %d", i)
		}
		BitsToSymbols(got, bitsBuf)
		require.Equal(t, syms, got)
	}
	require.Equal(t, 680, PackedLen(RS544N))
}

func TestPackKnownAnswer(t *testing.T) {
	// 0x3ff then 0x001: bits 1111111111 1000000000, LSB first.
	dst := make([]byte, 3)
	PackSymbols(dst, []uint16{0x3ff, 0x001})
	require.Equal(t, []byte{0xff, 0x07, 0x00}, dst)
	require.Panics(t, func() { PackSymbols(dst, []uint16{0x400}) })
}
