package packet

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ibReference computes the native ICRC from the masking rules with plain
// copies and a one-shot CRC-32, independently of IBICRC's streaming code.
func ibReference(pkt []byte) uint32 {
	c := append([]byte(nil), pkt...)
	bth := 8
	if c[1]&3 == 3 {
		copy(c, []byte{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF})
		c[8] |= 0x0F
		c[9], c[10], c[11], c[15] = 0xFF, 0xFF, 0xFF, 0xFF
		bth = 48
	} else {
		c[0] |= 0xF0
	}
	c[bth+4] = 0xFF
	return crc32.ChecksumIEEE(c)
}

// randomIB builds a native IB packet (LRH, optional GRH, BTH, payload, ICRC,
// VCRC) with a consistent PktLen.
func randomIB(r *rand.Rand, global bool, payload int) []byte {
	n := 8 + 12 + payload
	if global {
		n += 40
	}
	n = (n + 3) &^ 3 // pad to a word
	p := make([]byte, n+ICRCLen+VCRCLen)
	for i := range p {
		p[i] = byte(r.Uint32())
	}
	p[1] = p[1]&^3 | 2
	if global {
		p[1] |= 3
		p[8] = 0x60 | p[8]&0x0F
		p[8+6] = 0x1B
	}
	binary.BigEndian.PutUint16(p[4:], uint16(p[4]&0xF8)<<8|uint16((n+ICRCLen)/4))
	return p
}

func TestIBICRCMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	for i := range 400 {
		global := i%2 == 1
		p := randomIB(r, global, r.IntN(300))
		end := len(p) - ICRCLen - VCRCLen
		orig := bytes.Clone(p)
		c, err := IBICRC(p[:end])
		require.NoError(t, err)
		require.Equal(t, orig, p, "input modified")
		require.Equal(t, ibReference(p[:end]), c)

		require.NoError(t, PutIBICRC(p))
		assert.Equal(t, orig[end+ICRCLen:], p[end+ICRCLen:], "VCRC bytes touched")
		require.NoError(t, CheckIBICRC(p))

		// Variant fields may change.
		p[0] ^= 0x30 // VL
		bth := 8
		if global {
			p[1] ^= 0x50 // SL, rewritten by routers
			p[2] ^= 0xFF // DLID
			p[9] ^= 0x0F
			p[15]--
			bth = 48
		}
		p[bth+4] ^= 0xC0
		require.NoError(t, CheckIBICRC(p))
		// Invariant ones may not: the SL of a local packet, a payload byte.
		q := bytes.Clone(p)
		if global {
			q[bth+1] ^= 0x40 // BTH MigReq
		} else {
			q[1] ^= 0x10 // SL
		}
		var fe *FieldError
		require.True(t, errors.As(CheckIBICRC(q), &fe))
		assert.Equal(t, BadChecksum, fe.Problem)
	}
}

func TestIBICRCErrors(t *testing.T) {
	r := rand.New(rand.NewPCG(33, 34))
	local := randomIB(r, false, 8)
	global := randomIB(r, true, 8)
	mod := func(b []byte, f func([]byte)) []byte {
		c := bytes.Clone(b)
		f(c)
		return c
	}
	tests := []struct {
		name   string
		pkt    []byte
		header string
		field  string
		p      Problem
	}{
		{"short", local[:7], "LRH", "header", Truncated},
		{"raw", mod(local, func(b []byte) { b[1] &^= 3 }), "LRH", "LNH", BadValue},
		{"grhshort", global[:47], "GRH", "header", Truncated},
		{"ipver", mod(global, func(b []byte) { b[8] = 0x40 }), "GRH", "IPVer", BadVersion},
		{"nxthdr", mod(global, func(b []byte) { b[14] = 17 }), "GRH", "NxtHdr", BadValue},
		{"bthshort", local[:19], "BTH", "header", Truncated},
		{"pktlen", mod(local, func(b []byte) { binary.BigEndian.PutUint16(b[4:], 5) }), "LRH", "PktLen", BadLength},
		{"longer", mod(local, func(b []byte) { binary.BigEndian.PutUint16(b[4:], uint16(len(b)/4+1)) }), "ICRC", "packet", Truncated},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var fe *FieldError
			require.True(t, errors.As(CheckIBICRC(tc.pkt), &fe))
			assert.Equal(t, tc.header, fe.Header)
			assert.Equal(t, tc.field, fe.Field)
			assert.Equal(t, tc.p, fe.Problem)
			require.Error(t, PutIBICRC(bytes.Clone(tc.pkt)))
		})
	}
}

func FuzzCheckIBICRC(f *testing.F) {
	r := rand.New(rand.NewPCG(35, 36))
	f.Add(randomIB(r, false, 4))
	f.Add(randomIB(r, true, 0))
	f.Fuzz(func(t *testing.T, b []byte) {
		orig := bytes.Clone(b)
		err := CheckIBICRC(b)
		_, _ = IBICRC(b)
		require.True(t, bytes.Equal(orig, b), "input modified")
		c := bytes.Clone(b)
		if perr := PutIBICRC(c); perr != nil {
			require.Error(t, err)
			return
		}
		require.NoError(t, CheckIBICRC(c))
		if err == nil {
			require.Equal(t, b, c)
		}
	})
}

func BenchmarkIBICRC4K(b *testing.B) {
	p := randomIB(rand.New(rand.NewPCG(1, 1)), false, 4096)
	b.SetBytes(int64(len(p)))
	b.ReportAllocs()
	for b.Loop() {
		if err := PutIBICRC(p); err != nil {
			b.Fatal(err)
		}
	}
}
