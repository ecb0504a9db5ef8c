package packet

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestInternetChecksumRFC1071(t *testing.T) {
	// RFC 1071 section 3 numerical example: bytes 00 01 f2 03 f4 f5 f6 f7
	// sum to 0xddf2 (one's complement), so the checksum is 0x220d.
	b := []byte{0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7}
	assert.Equal(t, uint32(0xddf2), uint32(^ChecksumFold(ChecksumAdd(0, b))))
	assert.Equal(t, uint16(0x220d), InternetChecksum(b))
	// Odd length: the last byte is padded with zero.
	assert.Equal(t, InternetChecksum([]byte{0xab, 0x00}), InternetChecksum([]byte{0xab}))
	// Splitting at an even offset does not change the sum.
	assert.Equal(t, InternetChecksum(b), ChecksumFold(ChecksumAdd(ChecksumAdd(0, b[:2]), b[2:])))
}

func TestIPv4HeaderChecksumKnown(t *testing.T) {
	tests := []struct {
		name string
		hdr  string
		want uint16
	}{
		// The classic example header (Wikipedia "Internet checksum" /
		// "IPv4 header checksum"): 192.168.0.1 -> 192.168.0.199, UDP.
		{"wikipedia", "450000730000400040110000c0a80001c0a800c7", 0xb861},
		// ConnectX-4 Lx RoCEv2 CNP capture in secdev/scapy:test/contrib/roce.uts.
		{"cx4-cnp", "45c2003c718c40004011ffff0a0011010a001201", 0x9161},
		// Header built by scapy in secdev/scapy:test/contrib/roce.uts, which
		// asserts chksum == 0xb4d5.
		{"scapy-uc", "45010040047840004011ffffc0a80007c0a80007", 0xb4d5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := mustHex(t, tc.hdr)
			got, err := IPv4HeaderChecksum(h)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
			require.NoError(t, PutIPv4HeaderChecksum(h))
			assert.Equal(t, tc.want, binary.BigEndian.Uint16(h[10:]))
			require.NoError(t, CheckIPv4HeaderChecksum(h))
			assert.Equal(t, uint16(0), InternetChecksum(h))
			h[10] ^= 0x40
			var fe *FieldError
			require.True(t, errors.As(CheckIPv4HeaderChecksum(h), &fe))
			assert.Equal(t, BadChecksum, fe.Problem)
			assert.Equal(t, uint64(tc.want^0x4000), fe.Value)
		})
	}
}

func TestUpdateChecksum16RFC1624(t *testing.T) {
	// RFC 1624 section 4: other octets sum to 0xCD7A, a field changes from
	// 0x5555 to 0x3285; HC = 0xDD2F and the recomputed HC' is 0x0000, which
	// equation 3 reproduces (equation 2 would give 0xFFFF).
	assert.Equal(t, uint16(0xDD2F), ChecksumFold(ChecksumAdd(0, []byte{0xCD, 0x7A, 0x55, 0x55})))
	assert.Equal(t, uint16(0x0000), UpdateChecksum16(0xDD2F, 0x5555, 0x3285))
}

func TestDecrementIPv4TTL(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		ihl := 5 + r.IntN(11)
		h := make([]byte, ihl*4)
		for i := range h {
			h[i] = byte(r.Uint32())
		}
		h[0] = 0x40 | byte(ihl)
		if h[8] == 0 {
			h[8] = 1
		}
		require.NoError(t, PutIPv4HeaderChecksum(h))
		ttl := h[8]
		require.NoError(t, DecrementIPv4TTL(h))
		assert.Equal(t, ttl-1, h[8])
		require.NoError(t, CheckIPv4HeaderChecksum(h), "% x", h)
	}
	h := mustHex(t, "450000730000400000110000c0a80001c0a800c7")
	var fe *FieldError
	require.True(t, errors.As(DecrementIPv4TTL(h), &fe))
	assert.Equal(t, BadValue, fe.Problem)
	assert.Equal(t, "TTL", fe.Field)
}

func TestIPv4HeaderChecksumErrors(t *testing.T) {
	tests := []struct {
		name  string
		hdr   []byte
		field string
		p     Problem
	}{
		{"short", make([]byte, 19), "header", Truncated},
		{"version", append([]byte{0x65}, make([]byte, 19)...), "Version", BadVersion},
		{"ihl", append([]byte{0x44}, make([]byte, 19)...), "IHL", BadLength},
		{"options", append([]byte{0x46}, make([]byte, 19)...), "options", Truncated},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, err := range []error{
				func() error { _, err := IPv4HeaderChecksum(tc.hdr); return err }(),
				PutIPv4HeaderChecksum(tc.hdr),
				CheckIPv4HeaderChecksum(tc.hdr),
				DecrementIPv4TTL(tc.hdr),
			} {
				var fe *FieldError
				require.True(t, errors.As(err, &fe))
				assert.Equal(t, "IPv4", fe.Header)
				assert.Equal(t, tc.field, fe.Field)
				assert.Equal(t, tc.p, fe.Problem)
			}
		})
	}
}

func FuzzIPv4HeaderChecksum(f *testing.F) {
	f.Add([]byte{0x45, 0, 0, 0x73, 0, 0, 0x40, 0, 0x40, 0x11, 0xb8, 0x61, 0xc0, 0xa8, 0, 1, 0xc0, 0xa8, 0, 0xc7})
	f.Add([]byte{0x4f})
	f.Fuzz(func(t *testing.T, b []byte) {
		c := append([]byte(nil), b...)
		if err := PutIPv4HeaderChecksum(c); err != nil {
			require.Error(t, CheckIPv4HeaderChecksum(b))
			return
		}
		require.NoError(t, CheckIPv4HeaderChecksum(c))
		if c[8] > 0 {
			require.NoError(t, DecrementIPv4TTL(c))
			require.NoError(t, CheckIPv4HeaderChecksum(c))
		}
	})
}

func BenchmarkIPv4HeaderChecksum(b *testing.B) {
	h := []byte{0x45, 0, 0, 0x73, 0, 0, 0x40, 0, 0x40, 0x11, 0xb8, 0x61, 0xc0, 0xa8, 0, 1, 0xc0, 0xa8, 0, 0xc7}
	b.ReportAllocs()
	for b.Loop() {
		if err := CheckIPv4HeaderChecksum(h); err != nil {
			b.Fatal(err)
		}
	}
}
