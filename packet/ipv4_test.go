package packet

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// EncodeChecksummed writes the bytes, and sets the checksum, that
// ComputeChecksum then Encode do, for random headers with and without
// options, and the checksum passes CheckIPv4HeaderChecksum, whose sum is
// computed apart (ComputeChecksum now uses EncodeChecksummed); a header
// that cannot be encoded fails the same way.
func TestIPv4EncodeChecksummedMatchesTwoSteps(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 2000; i++ {
		ihl := uint8(5 + rng.IntN(11))
		h := IPv4{IHL: ihl, TOS: uint8(rng.Uint32()), TotalLength: uint16(int(ihl)*4 + rng.IntN(9000)),
			ID: uint16(rng.Uint32()), Flags: uint8(rng.IntN(8)), FragOffset: uint16(rng.IntN(1 << 13)),
			TTL: uint8(rng.Uint32()), Protocol: uint8(rng.Uint32()), Checksum: uint16(rng.Uint32())}
		for k := range h.Src {
			h.Src[k], h.Dst[k] = byte(rng.Uint32()), byte(rng.Uint32())
		}
		for k := 0; k < int(ihl-5)*4; k++ {
			h.Options[k] = byte(rng.Uint32())
		}
		if i%10 == 0 {
			h.Flags = 8 // too wide: both fail
		}
		two, one := h, h
		want := make([]byte, IPv4MaxLen)
		errWant := two.ComputeChecksum()
		var nWant int
		if errWant == nil {
			nWant, errWant = two.Encode(want)
		}
		got := make([]byte, IPv4MaxLen)
		nGot, errGot := one.EncodeChecksummed(got)
		if errWant != nil {
			require.EqualError(t, errGot, errWant.Error(), "header %d", i)
			continue
		}
		require.NoError(t, errGot, "header %d", i)
		require.Equal(t, nWant, nGot, "header %d", i)
		require.Equal(t, want, got, "header %d", i)
		require.Equal(t, two, one, "header %d", i)
		require.NoError(t, CheckIPv4HeaderChecksum(got[:nGot]), "header %d", i)
	}
}
