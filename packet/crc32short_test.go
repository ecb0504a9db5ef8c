package packet

import (
	"hash/crc32"
	"math/rand/v2"
	"testing"
)

// TestShortCRCMatchesHashCRC32 checks the slicing-by-eight CRC against
// hash/crc32 for both polynomials, every length from 0 to 100 bytes, at
// each of the eight alignments of the eight-byte steps, from random
// previous values.
func TestShortCRCMatchesHashCRC32(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	buf := make([]byte, 108)
	for i := range buf {
		buf[i] = byte(rng.Uint32())
	}
	for _, c := range []struct {
		name  string
		short *shortCRC
		tab   *crc32.Table
	}{{"IEEE", ieeeShort, crc32.IEEETable}, {"Castagnoli", castagnoliShort, castagnoliTable}} {
		for n := 0; n <= 100; n++ {
			for off := range 8 {
				prev := rng.Uint32()
				b := buf[off : off+n]
				if got, want := c.short.update(prev, b), crc32.Update(prev, c.tab, b); got != want {
					t.Fatalf("%s: %d bytes at offset %d from %#08x: %#08x, hash/crc32 gives %#08x", c.name, n, off, prev, got, want)
				}
			}
		}
	}
	if got := ieeeShort.update(0, []byte("123456789")); got != 0xCBF43926 {
		t.Errorf("CRC-32 check value %#08x, want 0xcbf43926", got)
	}
	if got := castagnoliShort.update(0, []byte("123456789")); got != 0xE3069283 {
		t.Errorf("CRC-32C check value %#08x, want 0xe3069283", got)
	}
}
