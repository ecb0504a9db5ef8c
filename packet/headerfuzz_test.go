package packet

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// hdrFuzz seeds a fuzz target with valid encodings of one header type and
// checks that decoding never panics, that failures are *FieldError, and
// that a successful decode re-encodes to the same leading bytes.
func hdrFuzz(f *testing.F, name string) {
	c := hdrCaseNamed(f, name)
	r := rand.New(rand.NewPCG(7, uint64(len(name))))
	big := make([]byte, 1<<16+64)
	for seeds := 0; seeds < 8; {
		_, in := hdrEncodeFor(f, c, c.gen(r), big)
		if len(in) <= 512 {
			f.Add(append([]byte(nil), in...))
			seeds++
		}
	}
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		hdrCheckCanonical(t, c, b, make([]byte, 128))
	})
}

func FuzzDecodeEthernet(f *testing.F)     { hdrFuzz(f, "Ethernet") }
func FuzzDecodeIPv4(f *testing.F)         { hdrFuzz(f, "IPv4") }
func FuzzDecodeIPv6(f *testing.F)         { hdrFuzz(f, "IPv6") }
func FuzzDecodeUDP(f *testing.F)          { hdrFuzz(f, "UDP") }
func FuzzDecodeLRH(f *testing.F)          { hdrFuzz(f, "LRH") }
func FuzzDecodeGRH(f *testing.F)          { hdrFuzz(f, "GRH") }
func FuzzDecodeBTH(f *testing.F)          { hdrFuzz(f, "BTH") }
func FuzzDecodeRETH(f *testing.F)         { hdrFuzz(f, "RETH") }
func FuzzDecodeAETH(f *testing.F)         { hdrFuzz(f, "AETH") }
func FuzzDecodeDETH(f *testing.F)         { hdrFuzz(f, "DETH") }
func FuzzDecodeImmDt(f *testing.F)        { hdrFuzz(f, "ImmDt") }
func FuzzDecodeAtomicETH(f *testing.F)    { hdrFuzz(f, "AtomicETH") }
func FuzzDecodeAtomicAckETH(f *testing.F) { hdrFuzz(f, "AtomicAckETH") }
func FuzzDecodeCNP(f *testing.F)          { hdrFuzz(f, "CNP") }
func FuzzDecodeINT(f *testing.F)          { hdrFuzz(f, "INT") }
func FuzzDecodePDSRequest(f *testing.F)   { hdrFuzz(f, "PDSRequest") }
func FuzzDecodePDSAckOnly(f *testing.F)   { hdrFuzz(f, "PDSAck") }
func FuzzDecodePDSAckCC(f *testing.F)     { hdrFuzz(f, "PDSAckCC") }
func FuzzDecodePDSNack(f *testing.F)      { hdrFuzz(f, "PDSNack") }
func FuzzDecodeSESStandard(f *testing.F)  { hdrFuzz(f, "SESStandard") }
func FuzzDecodeSESSmall(f *testing.F)     { hdrFuzz(f, "SESSmall") }
func FuzzDecodeTransport(f *testing.F)    { hdrFuzz(f, "Transport") }
func FuzzDecodePFC(f *testing.F)          { hdrFuzz(f, "PFC") }

// FuzzDecodeRoCEv2 fuzzes the whole-frame parser. On success, rebuilding
// the frame from the decoded headers and payload must reproduce the input
// up to the end of the payload (pad, ICRC and FCS are zero bytes in a
// built frame; an IPv4 checksum of 0xFFFF and 0x0000 are equivalent, so
// the input's checksum is carried over).
func FuzzDecodeRoCEv2(f *testing.F) {
	r := rand.New(rand.NewPCG(8, 9))
	buf := make([]byte, 1024)
	for i, op := range []OpCode{RCWriteFirst, RCWriteMiddle, RCAcknowledge, RCAtomicAcknowledge, UDSendOnlyImm, CNPOpCode} {
		fr := hdrRoCEv2(i%2 == 1, i%3 == 0, op)
		fr.Transport = hdrGenTransportOp(r, op)
		n, err := fr.Build(buf, make([]byte, r.IntN(40)))
		require.NoError(f, err)
		f.Add(append([]byte(nil), buf[:n]...))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var g RoCEv2
		if err := g.Decode(b); err != nil {
			var fe *FieldError
			require.ErrorAs(t, err, &fe)
			return
		}
		out := make([]byte, len(b)+EthernetMinFrame+wireFCS)
		h := g
		n, err := h.Build(out, b[g.PayloadOff:g.PayloadOff+g.PayloadLen])
		require.NoError(t, err)
		require.GreaterOrEqual(t, n, h.End())
		if !g.IsIPv6() {
			ck := g.Eth.Len() + 10
			copy(out[ck:ck+2], b[ck:ck+2])
		}
		end := g.PayloadOff + g.PayloadLen
		require.Equal(t, b[:end], out[:end])
		require.Equal(t, g.ICRCOff, h.ICRCOff)
	})
}

// FuzzDecodeIBPacket fuzzes the native IB parser; on success a rebuild must
// reproduce the input up to the end of the payload.
func FuzzDecodeIBPacket(f *testing.F) {
	r := rand.New(rand.NewPCG(10, 11))
	buf := make([]byte, 1024)
	for i := 0; i < 6; i++ {
		p := IBPacket{LRH: LRH{LNH: uint8(LNHBTH + i%2)}, Transport: hdrGenTransport(r)}
		n, err := p.Build(buf, make([]byte, r.IntN(40)))
		require.NoError(f, err)
		f.Add(append([]byte(nil), buf[:n]...))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var g IBPacket
		if err := g.Decode(b); err != nil {
			var fe *FieldError
			require.ErrorAs(t, err, &fe)
			return
		}
		out := make([]byte, len(b)+8)
		h := g
		_, err := h.Build(out, b[g.PayloadOff:g.PayloadOff+g.PayloadLen])
		require.NoError(t, err)
		end := g.PayloadOff + g.PayloadLen
		require.Equal(t, b[:end], out[:end])
		require.Equal(t, g.End(), h.End())
	})
}
