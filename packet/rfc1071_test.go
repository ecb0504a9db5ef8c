package packet

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// rfc1071Words is the sum as RFC 1071 states it, a 16-bit word at a time.
func rfc1071Words(b []byte, sum uint32) uint16 {
	acc := uint64(sum)
	for ; len(b) >= 2; b = b[2:] {
		acc += uint64(b[0])<<8 | uint64(b[1])
	}
	if len(b) == 1 {
		acc += uint64(b[0]) << 8
	}
	for acc>>16 != 0 {
		acc = acc&0xFFFF + acc>>16
	}
	return uint16(acc)
}

// TestRFC1071SumWords checks the four-bytes-at-a-time sum against the sum
// of 16-bit words, for every length to 100 bytes, random, all-zero and
// all-0xFF contents and several starting sums.
func TestRFC1071SumWords(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for n := 0; n <= 100; n++ {
		for _, fill := range []int{-1, 0x00, 0xFF} {
			b := make([]byte, n)
			for i := range b {
				if fill < 0 {
					b[i] = byte(rng.Uint32())
				} else {
					b[i] = byte(fill)
				}
			}
			for _, sum := range []uint32{0, 1, 0xFFFF, 0x1FFFE, rng.Uint32()} {
				require.Equal(t, rfc1071Words(b, sum), rfc1071Sum(b, sum), "n %d fill %d sum %#x", n, fill, sum)
			}
		}
	}
}
