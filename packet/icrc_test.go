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

// cx4CNPFrame is a RoCEv2 CNP captured on a ConnectX-4 Lx, from
// secdev/scapy:test/contrib/roce.uts ("RoCE CNP captured on ConnectX-4 Lx"):
// Ethernet, IPv4 (DSCP/ECN 0xc2), UDP to 4791 with checksum 0, BTH opcode
// 0x81 with BECN set, DestQP 0x118, 16 reserved bytes, ICRC bytes 82 fd 00 2a.
const cx4CNPFrame = "e41d2dab2bc27cfe90643b320800" +
	"45c2003c718c400040119161 0a001101 0a001201" +
	"000012b700280000" +
	"8100ffff4000011800000000" +
	"00000000000000000000000000000000" +
	"82fd002a"

// scapyUCPacket is the UC SEND_ONLY example of the same scapy test file:
// 192.168.0.7 -> 192.168.0.7, TOS 1, TTL 64, UDP 49152 -> 4791, BTH with
// MigReq and PadCnt 2, DestQP 211, PSN 13571856, a 20-byte payload. scapy
// computes its ICRC with zlib crc32 and the test asserts the trailer reads
// 0x78f353f3 (bytes 78 f3 53 f3), IP checksum 0xb4d5, UDP checksum 0xaca2.
const scapyUCPacket = "45010040047840004011b4d5c0a80007c0a80007" +
	"c00012b7002caca2" +
	"2460ffff000000d300cf1710" +
	"4630818be28935d90e9a95505401be885e500000" +
	"78f353f3"

func hexNoSpace(t testing.TB, s string) []byte {
	t.Helper()
	out := make([]byte, 0, len(s))
	for i := range len(s) {
		if s[i] != ' ' {
			out = append(out, s[i])
		}
	}
	return mustHex(t, string(out))
}

func TestICRCSeed(t *testing.T) {
	// FACTS 1.3 [R3]: the register after 8 bytes of 0xFF from 0xFFFFFFFF.
	ff := []byte{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}
	assert.Equal(t, ICRCSeed, ^crc32.ChecksumIEEE(ff))
}

func TestRoCEv2ICRCKnownPackets(t *testing.T) {
	tests := []struct {
		name string
		pkt  []byte // from the IP header through the ICRC
		wire []byte // ICRC bytes as on the wire
	}{
		{"cx4-cnp-capture", hexNoSpace(t, cx4CNPFrame)[14:], []byte{0x82, 0xfd, 0x00, 0x2a}},
		{"scapy-uc-send-only", hexNoSpace(t, scapyUCPacket), []byte{0x78, 0xf3, 0x53, 0xf3}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.NoError(t, CheckRoCEv2ICRC(tc.pkt))
			end := len(tc.pkt) - ICRCLen
			c, err := RoCEv2ICRC(tc.pkt[:end])
			require.NoError(t, err)
			assert.Equal(t, binary.LittleEndian.Uint32(tc.wire), c)

			cp := append([]byte(nil), tc.pkt...)
			clear(cp[end:])
			require.NoError(t, PutRoCEv2ICRC(cp))
			assert.Equal(t, tc.wire, cp[end:])

			// Ethernet padding after the datagram is ignored.
			require.NoError(t, CheckRoCEv2ICRC(append(cp, 0, 0, 0)))
		})
	}
	// The scapy packet's UDP checksum covers the ICRC, so checking it
	// confirms the bytes above are the ones scapy built.
	p := hexNoSpace(t, scapyUCPacket)
	s := ChecksumAdd(0, p[12:20])
	s = ChecksumAdd(s, []byte{0, 17, 0, 44})
	assert.Equal(t, uint16(0), ChecksumFold(ChecksumAdd(s, p[20:])))
}

// roceReference computes the ICRC the way scapy's roce.py does: copy the
// packet, set the variant fields to ones, prepend 8 bytes of 0xFF and run
// zlib-style CRC-32 over it.
func roceReference(pkt []byte) uint32 {
	c := append([]byte(nil), pkt...)
	ip := 40
	if c[0]>>4 == 4 {
		ip = int(c[0]&0x0F) * 4
		c[1], c[8], c[10], c[11] = 0xFF, 0xFF, 0xFF, 0xFF
	} else {
		c[0] |= 0x0F
		c[1], c[2], c[3], c[7] = 0xFF, 0xFF, 0xFF, 0xFF
	}
	c[ip+6], c[ip+7] = 0xFF, 0xFF
	c[ip+12] = 0xFF
	return crc32.ChecksumIEEE(append([]byte{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}, c...))
}

func randomRoCEv2(r *rand.Rand, v6 bool, payload int) []byte {
	ip := 20 + 4*r.IntN(3)
	if v6 {
		ip = 40
	}
	n := ip + 8 + 12 + payload + ICRCLen
	p := make([]byte, n)
	for i := range p {
		p[i] = byte(r.Uint32())
	}
	if v6 {
		p[0] = 0x60 | p[0]&0x0F
		p[6] = 17
		binary.BigEndian.PutUint16(p[4:], uint16(n-40))
	} else {
		p[0] = 0x40 | byte(ip/4)
		p[9] = 17
		binary.BigEndian.PutUint16(p[2:], uint16(n))
	}
	return p
}

func TestRoCEv2ICRCMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for i := range 500 {
		p := randomRoCEv2(r, i%2 == 1, r.IntN(300))
		end := len(p) - ICRCLen
		orig := append([]byte(nil), p...)
		c, err := RoCEv2ICRC(p[:end])
		require.NoError(t, err)
		assert.Equal(t, orig, p, "input modified")
		require.Equal(t, roceReference(p[:end]), c)

		require.NoError(t, PutRoCEv2ICRC(p))
		require.NoError(t, CheckRoCEv2ICRC(p))
		// Variant fields may change in flight without breaking the ICRC.
		ip := 40
		if p[0]>>4 == 4 {
			ip = int(p[0]&0x0F) * 4
			p[1] ^= 0x03 // ECN mark
			p[8]--       // TTL
			p[10] ^= 0x5A
		} else {
			p[1] ^= 0x30
			p[7]--
		}
		p[ip+6] ^= 0xFF  // UDP checksum
		p[ip+12] ^= 0xC0 // FECN, BECN
		require.NoError(t, CheckRoCEv2ICRC(p))
		// An invariant byte may not.
		k := ip + 8 + 12 + r.IntN(end-ip-20+1) - 1
		if k < ip+20 {
			k = ip + 2 // UDP destination port
		}
		p[k] ^= 0x01
		var fe *FieldError
		require.True(t, errors.As(CheckRoCEv2ICRC(p), &fe))
		assert.Equal(t, BadChecksum, fe.Problem)
	}
}

func TestRoCEv2ICRCErrors(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	good4 := randomRoCEv2(r, false, 0)
	good6 := randomRoCEv2(r, true, 0)
	mod := func(b []byte, f func([]byte)) []byte {
		c := append([]byte(nil), b...)
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
		{"empty", nil, "IP", "Version", Truncated},
		{"version", mod(good4, func(b []byte) { b[0] = 0x55 }), "IP", "Version", BadVersion},
		{"ihl", mod(good4, func(b []byte) { b[0] = 0x44 }), "IPv4", "IHL", BadLength},
		{"proto", mod(good4, func(b []byte) { b[9] = 6 }), "IPv4", "Protocol", BadValue},
		{"nexthdr", mod(good6, func(b []byte) { b[6] = 0 }), "IPv6", "NextHeader", BadValue},
		{"v6short", good6[:39], "IPv6", "header", Truncated},
		{"udpshort", good4[:27], "UDP", "header", Truncated},
		{"bthshort", good4[:39], "BTH", "header", Truncated},
		{"totallen", mod(good4, func(b []byte) { binary.BigEndian.PutUint16(b[2:], 43) }), "IPv4", "TotalLength", BadLength},
		{"paylen", mod(good6, func(b []byte) { binary.BigEndian.PutUint16(b[4:], 23) }), "IPv6", "PayloadLength", BadLength},
		{"longer", mod(good4, func(b []byte) { binary.BigEndian.PutUint16(b[2:], uint16(len(b)+1)) }), "ICRC", "datagram", Truncated},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var fe *FieldError
			require.True(t, errors.As(CheckRoCEv2ICRC(tc.pkt), &fe))
			assert.Equal(t, tc.header, fe.Header)
			assert.Equal(t, tc.field, fe.Field)
			assert.Equal(t, tc.p, fe.Problem)
			require.Error(t, PutRoCEv2ICRC(append([]byte(nil), tc.pkt...)))
		})
	}
}

func FuzzCheckRoCEv2ICRC(f *testing.F) {
	cnp, _ := hexDecodeNoSpace(cx4CNPFrame)
	f.Add(cnp[14:])
	uc, _ := hexDecodeNoSpace(scapyUCPacket)
	f.Add(uc)
	f.Add(randomRoCEv2(rand.New(rand.NewPCG(9, 9)), true, 5))
	f.Fuzz(func(t *testing.T, b []byte) {
		orig := append([]byte(nil), b...)
		err := CheckRoCEv2ICRC(b)
		_, _ = RoCEv2ICRC(b)
		require.True(t, bytes.Equal(orig, b), "input modified")
		c := append([]byte(nil), b...)
		if perr := PutRoCEv2ICRC(c); perr != nil {
			require.Error(t, err)
			return
		}
		require.NoError(t, CheckRoCEv2ICRC(c))
		if err == nil {
			require.Equal(t, b, c)
		}
	})
}

func hexDecodeNoSpace(s string) ([]byte, error) {
	out := make([]byte, 0, len(s))
	for i := range len(s) {
		if s[i] != ' ' {
			out = append(out, s[i])
		}
	}
	b := make([]byte, len(out)/2)
	for i := range b {
		hi, lo := unhex(out[2*i]), unhex(out[2*i+1])
		b[i] = hi<<4 | lo
	}
	return b, nil
}

func unhex(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

func BenchmarkRoCEv2ICRC4K(b *testing.B) {
	p := randomRoCEv2(rand.New(rand.NewPCG(1, 1)), false, 4096)
	b.SetBytes(int64(len(p)))
	b.ReportAllocs()
	for b.Loop() {
		if err := PutRoCEv2ICRC(p); err != nil {
			b.Fatal(err)
		}
	}
}
