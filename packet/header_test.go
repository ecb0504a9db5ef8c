package packet

import (
	"encoding/hex"
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHeaderDecodeEncodeProperty checks decode(encode(x)) == x and that the
// second encoding is byte-identical, for random valid headers of every type.
func TestHeaderDecodeEncodeProperty(t *testing.T) {
	buf := make([]byte, 1<<16+64)
	out := make([]byte, 1<<16+64)
	for _, c := range hdrCases {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, uint64(len(c.name))))
			for i := 0; i < 3000; i++ {
				h := c.gen(r)
				enc, in := hdrEncodeFor(t, c, h, buf)
				got := c.fresh()
				require.NoError(t, got.Decode(in), "%s %d: %+v", c.name, i, h)
				require.Equal(t, h, got, "%s %d", c.name, i)
				n, err := got.Encode(out)
				require.NoError(t, err)
				require.Equal(t, enc, out[:n], "%s %d", c.name, i)
			}
		})
	}
}

// TestHeaderRandomBytesCanonical checks encode(decode(b)) == b for random
// byte strings that decode, and that every failure is a *FieldError naming
// the header.
func TestHeaderRandomBytesCanonical(t *testing.T) {
	out := make([]byte, 128)
	for _, c := range hdrCases {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(2, uint64(len(c.name))))
			big := make([]byte, 1<<16+64)
			ok := 0
			for i := 0; i < 3000; i++ {
				var b []byte
				if i%2 == 0 {
					b = make([]byte, r.IntN(64))
					hdrFill(r, b)
				} else { // a valid encoding with one byte changed and a random cut
					_, in := hdrEncodeFor(t, c, c.gen(r), big)
					b = append([]byte(nil), in[:min(len(in), 64)]...)
					b[r.IntN(len(b))] ^= byte(1 + r.IntN(255))
					b = b[:len(b)-r.IntN(2)*r.IntN(len(b))]
				}
				if !hdrCheckCanonical(t, c, b, out) {
					continue
				}
				ok++
			}
			t.Logf("%s: %d of 3000 random strings decoded", c.name, ok)
		})
	}
}

// hdrCheckCanonical decodes b and, on success, asserts that re-encoding
// reproduces the leading bytes. It reports whether b decoded.
func hdrCheckCanonical(t *testing.T, c hdrCase, b, out []byte) bool {
	h := c.fresh()
	err := h.Decode(b)
	if err != nil {
		var fe *FieldError
		require.ErrorAs(t, err, &fe, "%s: %v", c.name, err)
		require.NotEmpty(t, fe.Field)
		return false
	}
	n, err := h.Encode(out)
	require.NoError(t, err, "%s: re-encode of % x", c.name, b)
	require.LessOrEqual(t, n, len(b))
	require.Equal(t, b[:n], out[:n], "%s: re-encode of % x", c.name, b)
	return true
}

func hdrHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	require.NoError(t, err)
	return b
}

// TestHeaderKnownLayouts checks byte layouts worked out by hand from the bit
// positions in FACTS 1.2 and 2.6.
func TestHeaderKnownLayouts(t *testing.T) {
	tests := []struct {
		name string
		h    hdrCodec
		want string
		pad  int // zero bytes the decoder needs after the header
	}{
		// w0 = 0x0A<<24 | SE<<23 | PadCnt 2<<20 | P_Key; w1 = BECN<<30 | QP; w2 = AckReq<<31 | PSN [R5]
		{"BTH write only", &BTH{OpCode: RCWriteOnly, SE: true, PadCnt: 2, PKey: 0xFFFF, BECN: true,
			DestQP: 0x123456, AckReq: true, PSN: 0xABCDEF}, "0aa0ffff 40123456 80abcdef", 0},
		{"BTH FECN M reserved", &BTH{OpCode: UDSendOnly, M: true, PKey: 0x8001, FECN: true, Rsvd6: 0x3F,
			DestQP: 1, Rsvd7: 0x7F, PSN: 0xFFFFFF}, "64408001 bf000001 7fffffff", 0},
		{"CNP", &CNP{BTH: BTH{OpCode: CNPOpCode, PKey: 0xFFFF, BECN: true, DestQP: 0x000011}},
			"8100ffff 40000011 00000000" + strings.Repeat("00", 16), 0},
		// DA 01-80-C2-00-00-01, SA, 0x8808, opcode 0x0101, reserved, classes 3 and 5, their quanta
		{"PFC XOFF classes 3 and 5", &PFC{Src: [6]byte{2, 0, 0, 0, 0, 9}, Classes: 0x28,
			Quanta: [8]uint16{3: 0xFFFF, 5: 0x0102}}, "0180c2000001 020000000009 8808 0101 00 28" +
			"0000 0000 0000 ffff 0000 0102 0000 0000", 0},
		{"AETH ACK credit invalid", &AETH{Syndrome: AckSyndrome(CreditInvalid), MSN: 0x010203}, "1f010203", 0},
		{"AETH RNR NAK timer 14", &AETH{Syndrome: RNRNakSyndrome(14), MSN: 7}, "2e000007", 0},
		{"AETH NAK PSN sequence", &AETH{Syndrome: NAKPSNSeqError, MSN: 0xFFFFFF}, "60ffffff", 0},
		{"AETH NAK remote access", &AETH{Syndrome: NAKRemoteAccess}, "62000000", 0},
		// VL 1 | LVer 0, SL 3 | rsv 0 | LNH 2, DLID, rsv5 0 | PktLen 6, SLID [R79][R5]
		{"LRH", &LRH{VL: 1, SL: 3, LNH: LNHBTH, DLID: 0x1234, PktLen: 6, SLID: 0xBEEF}, "1032 1234 0006 beef", 16},
		{"LRH VL15 GRH", &LRH{VL: 15, SL: 15, Rsvd2: 3, LNH: LNHGRH, DLID: 0xFFFF, Rsvd5: 0x1F, PktLen: 2, SLID: 1},
			"f0ff ffff f802 0001", 0},
		{"DETH", &DETH{QKey: 0x80010000, SrcQP: 0x000001}, "80010000 00000001", 0},
		{"RETH", &RETH{VA: 0x0102030405060708, RKey: 0x11223344, DMALen: 4096}, "0102030405060708 11223344 00001000", 0},
		// Wikipedia's IPv4 header checksum example: 0xB861.
		{"IPv4", &IPv4{IHL: 5, TotalLength: 0x73, Flags: 2, TTL: 0x40, Protocol: 0x11, Checksum: 0xB861,
			Src: [4]byte{192, 168, 0, 1}, Dst: [4]byte{192, 168, 0, 199}},
			"4500 0073 0000 4000 4011 b861 c0a8 0001 c0a8 00c7", 0x73 - 20},
		// RUD_REQ, next_hdr 3, ackreq, syn: 2<<11 | 3<<7 | 1<<3 | 1<<2; masked with 0xf804 it is
		// UET_PDS_MATCH_TYPE_SYN(2) = 0x1004 [R21].
		{"PDS RUD request SYN", &PDSRequest{Type: PDSTypeRUDReq, NextHdr: SESHdrRequestStd, AckReq: true, SYN: true,
			ClearPSNOffset: 1, PSN: 0x10000000, SPDCID: 0x0102, DPDCID: 0x8123}, "118c 0001 10000000 0102 8123", 0},
		{"PDS ACK", &PDSAck{Type: PDSTypeAck, ECNMarked: true, Request: AckRequestClose, AckPSNOffset: 3,
			CAckPSN: 0xDEADBEEF, SPDCID: 1, DPDCID: 2}, "3824 0003 deadbeef 0001 0002", 0},
		{"PDS NACK trimmed", &PDSNack{NackType: NackTypeRUDI, Code: NackTrimmed, NackPSN: 5, SPDCID: 1, DPDCID: 2},
			"5008 01 00 00000005 0001 0002 00000000", 0},
		// opcode WRITE in the low 6 bits of byte 0, version in the top 2 of byte 1, SOM bit 0, EOM bit 1 [R21].
		{"SES small", &SESSmall{SESCommon: SESCommon{Opcode: SESOpWrite, Version: 1, SOM: true, EOM: true,
			MessageID: 9, RIGeneration: 2, JobID: 0xABCDEF, PIDOnFEP: 0xFFF, ResourceIndex: 0x123},
			BufferOffset: 0x1000}, "01 43 0009 02abcdef 0fff 0123 0000000000001000", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want := hdrHex(t, tc.want)
			buf := make([]byte, len(want)+tc.pad)
			n, err := tc.h.Encode(buf)
			require.NoError(t, err)
			assert.Equal(t, want, buf[:n])
			got := reflect.New(reflect.TypeOf(tc.h).Elem()).Interface().(hdrCodec)
			require.NoError(t, got.Decode(buf))
			assert.Equal(t, tc.h, got)
		})
	}
}

func TestHeaderAccessors(t *testing.T) {
	a := AETH{Syndrome: RNRNakSyndrome(0x12)}
	assert.True(t, a.IsRNRNak())
	assert.Equal(t, uint8(0x12), a.RNRTimer())
	a = AETH{Syndrome: NAKRemoteOp}
	assert.True(t, a.IsNak())
	assert.Equal(t, uint8(3), a.NAKCode())
	a = AETH{Syndrome: AckSyndrome(7)}
	assert.True(t, a.IsAck())
	assert.Equal(t, uint8(7), a.Credit())

	ip := IPv4{TOS: 48<<2 | 3}
	assert.Equal(t, uint8(48), ip.DSCP())
	assert.Equal(t, uint8(3), ip.ECN())

	hop := INTHop{LineRate: 4, Bytes: 10, QLen: 3}
	assert.Equal(t, uint64(400e9), hop.LineRateBps())
	assert.Equal(t, uint64(1280), hop.TxBytes())
	assert.Equal(t, uint64(240), hop.QueueBytes())
	var in INT
	for i := 0; i < INTMaxHops; i++ {
		require.True(t, in.Push(hop))
	}
	assert.False(t, in.Push(hop))

	req := PDSRequest{DPDCID: 0x8ABC}
	assert.True(t, req.UseRsvPDC())
	assert.Equal(t, uint16(0xABC), req.PSNOffset())

	ns := NSCCState{ServiceTime: 0x1234, RestoreCwnd: true, RcvCwndPend: 0x55, RcvdBytes: 0xABCDEF, OOOCount: 9}
	ack := PDSAckCC{CCState: ns.Pack(), SACKBitmap: 1 << 63}
	assert.Equal(t, uint64(0x1234_D5_ABCDEF_0009), ack.CCState)
	assert.Equal(t, ns, ack.NSCC())
	cr := CreditState{Credit: 0x123456, OOOCount: 2}
	ack.CCState = cr.Pack()
	assert.Equal(t, cr, ack.Credit())
	assert.True(t, ack.SACKed(63))
	assert.False(t, ack.SACKed(0))
	assert.False(t, ack.SACKed(64))

	var ses SESStandard
	ses.SetPayloadOffset(0x3FFF, 0x12345678)
	assert.Equal(t, uint16(0x3FFF), ses.PayloadLength())
	assert.Equal(t, uint32(0x12345678), ses.MessageOffset())

	assert.True(t, NackTrimmed.IsTrim())
	assert.True(t, NackRcvrInferLoss.Known())
	assert.False(t, NackCode(0x0C).Known())

	assert.Equal(t, "RC_RDMA_WRITE_FIRST", RCWriteFirst.String())
	assert.Equal(t, "UC_SEND_ONLY_IMM", UCSendOnlyImm.String())
	assert.Equal(t, "CNP", CNPOpCode.String())
	assert.Equal(t, "OpCode(0x40)", OpCode(0x40).String())
	assert.Equal(t, RETHLen+ImmDtLen, RCWriteOnlyImm.ExtLen())
	assert.Equal(t, AETHLen+AtomicAckETHLen, RCAtomicAcknowledge.ExtLen())
	assert.Equal(t, DETHLen+ImmDtLen, UDSendOnlyImm.ExtLen())
	assert.Equal(t, CNPReservedLen, CNPOpCode.ExtLen())
	assert.Len(t, hdrKnownOps, 21+12+2+1)
}

// TestHeaderEncodeErrors checks that encoders refuse values that do not fit
// their fields and buffers that are too short.
func TestHeaderEncodeErrors(t *testing.T) {
	buf := make([]byte, 64)
	tests := []struct {
		name        string
		h           hdrCodec
		buf         []byte
		header, fld string
		problem     Problem
	}{
		{"BTH short buffer", &BTH{}, buf[:11], "BTH", "buffer", Truncated},
		{"BTH QP too wide", &BTH{DestQP: 1 << 24}, buf, "BTH", "DestQP", BadValue},
		{"BTH PSN too wide", &BTH{PSN: 1 << 24}, buf, "BTH", "PSN", BadValue},
		{"IPv4 IHL 4", &IPv4{IHL: 4}, buf, "IPv4", "IHL", BadLength},
		{"IPv4 total below header", &IPv4{IHL: 5, TotalLength: 19}, buf, "IPv4", "TotalLength", BadLength},
		{"UDP length 7", &UDP{Length: 7}, buf, "UDP", "Length", BadLength},
		{"Ethernet untagged 0x8100", &Ethernet{EtherType: EtherTypeVLAN}, buf, "Ethernet", "EtherType", BadValue},
		{"Ethernet VID too wide", &Ethernet{Tagged: true, VLAN: VLANTag{VID: 4096}}, buf, "Ethernet", "VID", BadValue},
		{"LRH PktLen too wide", &LRH{PktLen: 2048}, buf, "LRH", "PktLen", BadValue},
		{"CNP wrong opcode", &CNP{BTH: BTH{OpCode: RCAcknowledge}}, buf, "CNP", "OpCode", BadValue},
		{"INT NHop 6", &INT{NHop: 6}, buf, "INT", "NHop", BadValue},
		{"PDS request type ACK", &PDSRequest{Type: PDSTypeAck}, buf, "PDSRequest", "Type", BadValue},
		{"PDS ACK_CC cc_type 2", &PDSAckCC{PDSAck: PDSAck{Type: PDSTypeAckCC}, CCType: 2}, buf, "PDSAckCC", "CCType", BadValue},
		{"SES JobID too wide", &SESSmall{SESCommon: SESCommon{JobID: 1 << 24}}, buf, "SESSmall", "JobID", BadValue},
		{"Transport unknown opcode", &Transport{BTH: BTH{OpCode: 0x15}}, buf, "BTH", "OpCode", BadValue},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.h.Encode(tc.buf)
			hdrRequireFieldError(t, err, tc.header, tc.fld, tc.problem)
		})
	}
}

func hdrRequireFieldError(t *testing.T, err error, header, field string, p Problem) {
	t.Helper()
	var fe *FieldError
	require.True(t, errors.As(err, &fe), "want *FieldError, got %v", err)
	assert.Equal(t, header, fe.Header, "header: %v", err)
	assert.Equal(t, field, fe.Field, "field: %v", err)
	assert.Equal(t, p, fe.Problem, "problem: %v", err)
}
