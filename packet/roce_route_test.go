package packet

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// routeFrame builds a RoCEv2 frame of opcode op (untagged unless vlan,
// IPv4 without options) and returns the frame, its length, and how many
// bytes its headers fill.
func routeFrame(t testing.TB, rng *rand.Rand, op OpCode, vlan bool) ([]byte, int, int) {
	var f RoCEv2
	f.Eth.EtherType = EtherTypeIPv4
	f.Eth.Tagged = vlan
	f.IP4 = IPv4{IHL: 5, TTL: 64, TOS: uint8(rng.IntN(256)),
		Src: [4]byte{10, byte(rng.IntN(256)), byte(rng.IntN(256)), byte(rng.IntN(256))},
		Dst: [4]byte{10, byte(rng.IntN(256)), byte(rng.IntN(256)), byte(rng.IntN(256))}}
	f.UDP.SrcPort = uint16(rng.IntN(1 << 16))
	f.BTH.OpCode = op
	f.BTH.DestQP = rng.Uint32() & QPNMask
	f.BTH.PSN = rng.Uint32() & PSNMask
	f.BTH.PadCnt = uint8(rng.IntN(4))
	payload := make([]byte, rng.IntN(300))
	buf := make([]byte, 2000)
	n, err := f.Build(buf, payload)
	require.NoError(t, err)
	return buf[:n], n, f.PayloadOff
}

// routeOf is what the switch would read from a full decode.
func routeOf(f *RoCEv2) RouteFields {
	return RouteFields{Src: f.IP4.Src, Dst: f.IP4.Dst, TOS: f.IP4.TOS,
		SrcPort: f.UDP.SrcPort, DstPort: f.UDP.DstPort, DestQP: f.BTH.DestQP}
}

// knownOpCodes lists every opcode DecodeHeaders takes.
func knownOpCodes() []OpCode {
	var ops []OpCode
	for op := 0; op < 256; op++ {
		if OpCode(op).Known() {
			ops = append(ops, OpCode(op))
		}
	}
	return ops
}

// checkRoute fails when the fast parse accepts what DecodeHeaders rejects
// or reads other fields; it returns whether the fast parse accepted.
func checkRoute(t *testing.T, b []byte, frameLen int) bool {
	t.Helper()
	got, ok := ParseRoCEv2IPv4Route(b, frameLen)
	var full RoCEv2
	err := full.DecodeHeaders(b, frameLen)
	if ok {
		require.NoError(t, err, "the fast parse took a frame DecodeHeaders rejects: % x (frame %d B)", b, frameLen)
		require.Equal(t, routeOf(&full), got)
	}
	return ok
}

// Every well-formed frame of the common shape, of every opcode, is read
// by the fast parse as DecodeHeaders reads it, from its headers alone as
// from the whole frame; a VLAN-tagged one is left to DecodeHeaders.
func TestRouteParseReadsWhatDecodeHeadersReads(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, op := range knownOpCodes() {
		for range 20 {
			b, n, hdr := routeFrame(t, rng, op, false)
			require.True(t, checkRoute(t, b, n), "opcode %v, whole frame", op)
			require.True(t, checkRoute(t, b[:hdr], n), "opcode %v, headers only", op)
			tagged, tn, thdr := routeFrame(t, rng, op, true)
			require.False(t, checkRoute(t, tagged[:thdr], tn), "opcode %v tagged", op)
		}
	}
}

// Frames with bytes changed, cut short or of another claimed length: the
// fast parse never accepts one DecodeHeaders rejects, and still accepts
// those DecodeHeaders accepts in the common shape.
func TestRouteParseRejectsWhatDecodeHeadersRejects(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	ops := knownOpCodes()
	var accepted, rejected int
	for range 200_000 {
		b, n, hdr := routeFrame(t, rng, ops[rng.IntN(len(ops))], false)
		h := append([]byte(nil), b[:hdr]...)
		switch rng.IntN(5) {
		case 0: // one byte anywhere in the headers
			h[rng.IntN(len(h))] = byte(rng.IntN(256))
		case 1: // one bit
			i := rng.IntN(len(h))
			h[i] ^= 1 << rng.IntN(8)
		case 2: // cut short
			h = h[:rng.IntN(len(h)+1)]
		case 3: // another frame length
			n += rng.IntN(41) - 20
		case 4: // IP and UDP lengths moved together, the checksum kept right
			d := rng.IntN(17) - 8
			ip := h[EthernetLen:]
			be.PutUint16(ip[2:], uint16(int(be.Uint16(ip[2:]))+d))
			be.PutUint16(ip[IPv4MinLen+4:], uint16(int(be.Uint16(ip[IPv4MinLen+4:]))+d))
			be.PutUint16(ip[10:], 0)
			be.PutUint16(ip[10:], ^rfc1071Sum(ip[:IPv4MinLen], 0))
		}
		var full RoCEv2
		err := full.DecodeHeaders(h, n)
		if checkRoute(t, h, n) {
			accepted++
		} else {
			rejected++
			if err == nil && len(h) >= EthernetLen && h[12] == 0x08 && h[13] == 0x00 && h[EthernetLen] == 0x45 {
				t.Fatalf("the fast parse left a common frame DecodeHeaders takes: % x (frame %d B)", h, n)
			}
		}
	}
	require.Greater(t, accepted, 10_000)
	require.Greater(t, rejected, 10_000)
}

func FuzzRouteParseAgreesWithDecodeHeaders(f *testing.F) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, op := range knownOpCodes() {
		b, n, hdr := routeFrame(f, rng, op, false)
		f.Add(b[:hdr], n)
	}
	f.Fuzz(func(t *testing.T, b []byte, frameLen int) { checkRoute(t, b, frameLen) })
}

func BenchmarkRouteParse(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	h, n, hdr := routeFrame(b, rng, RCWriteFirst, false)
	h = h[:hdr]
	b.Run("fast", func(b *testing.B) {
		for b.Loop() {
			if _, ok := ParseRoCEv2IPv4Route(h, n); !ok {
				b.Fatal("rejected")
			}
		}
	})
	b.Run("DecodeHeaders", func(b *testing.B) {
		var f RoCEv2
		for b.Loop() {
			if err := f.DecodeHeaders(h, n); err != nil {
				b.Fatal(err)
			}
		}
	})
}
