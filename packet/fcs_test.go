package packet

import (
	"encoding/hex"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fcsSampleFrame is an IPv4/UDP Ethernet frame (no preamble, no FCS) from
// the question "Check FCS Ethernet frame CRC-32 online tools" (Stack
// Overflow 40017293, mirrored at
// https://stackguides.com/questions/40017293/check-fcs-ethernet-frame-crc-32-online-tools),
// whose answer gives the Ethernet CRC 0xb36bd57a, sent as 7A D5 6B B3.
const fcsSampleFrame = "000AE6F005A3001234567890080045000030B3FE0000801172BA0A0000030A00000204000400001C894D000102030405060708090A0B0C0D0E0F10111213"

func mustHex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	require.NoError(t, err)
	return b
}

func TestFCSKnownFrame(t *testing.T) {
	frame := mustHex(t, fcsSampleFrame)
	assert.Equal(t, uint32(0xB36BD57A), FCS(frame))

	wire := AppendFCS(nil, frame)
	assert.Equal(t, []byte{0x7A, 0xD5, 0x6B, 0xB3}, wire)
	withFCS := AppendFCS(append([]byte(nil), frame...), frame)
	require.NoError(t, CheckFCS(withFCS))

	// The embedded IPv4 header carries a valid checksum too.
	require.NoError(t, CheckIPv4HeaderChecksum(frame[14:]))

	// PutFCS writes the same bytes into a reserved trailer.
	buf := append(append([]byte(nil), frame...), 0, 0, 0, 0)
	require.NoError(t, PutFCS(buf))
	assert.Equal(t, withFCS, buf)

	// Any single bit flip is caught.
	for i := range len(withFCS) * 8 {
		withFCS[i/8] ^= 1 << (i % 8)
		err := CheckFCS(withFCS)
		withFCS[i/8] ^= 1 << (i % 8)
		var fe *FieldError
		require.True(t, errors.As(err, &fe), "bit %d", i)
		assert.Equal(t, BadChecksum, fe.Problem)
	}
}

func TestFCSShort(t *testing.T) {
	for _, n := range []int{0, 1, 3} {
		var fe *FieldError
		require.True(t, errors.As(CheckFCS(make([]byte, n)), &fe))
		assert.Equal(t, Truncated, fe.Problem)
		require.True(t, errors.As(PutFCS(make([]byte, n)), &fe))
	}
	// Four bytes: the FCS of the empty frame is CRC-32("") = 0.
	assert.NoError(t, CheckFCS(make([]byte, 4)))
}

func FuzzCheckFCS(f *testing.F) {
	frame, _ := hex.DecodeString(fcsSampleFrame)
	f.Add(AppendFCS(append([]byte(nil), frame...), frame))
	f.Add([]byte{1, 2})
	f.Fuzz(func(t *testing.T, b []byte) {
		err := CheckFCS(b)
		if len(b) < FCSLen {
			require.Error(t, err)
			return
		}
		c := append([]byte(nil), b...)
		require.NoError(t, PutFCS(c))
		require.NoError(t, CheckFCS(c))
		if err == nil {
			assert.Equal(t, b, c)
		}
	})
}

func BenchmarkFCS4K(b *testing.B) {
	buf := make([]byte, 4096)
	for i := range buf {
		buf[i] = byte(i * 7)
	}
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		if err := PutFCS(buf); err != nil {
			b.Fatal(err)
		}
	}
}
