package packet

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hdrRoCEv2 returns a frame description ready for Build.
func hdrRoCEv2(v6, vlan bool, op OpCode) RoCEv2 {
	f := RoCEv2{
		Eth: Ethernet{Dst: [6]byte{0x02, 0, 0, 0, 0, 1}, Src: [6]byte{0x02, 0, 0, 0, 0, 2}, EtherType: EtherTypeIPv4},
		IP4: IPv4{IHL: 5, TOS: 26 << 2, Flags: 2, TTL: 64, Src: [4]byte{10, 0, 0, 1}, Dst: [4]byte{10, 0, 0, 2}},
		IP6: IPv6{TrafficClass: 26 << 2, FlowLabel: 0x12345, HopLimit: 64, Src: [16]byte{0xfd, 15: 1}, Dst: [16]byte{0xfd, 15: 2}},
		UDP: UDP{SrcPort: 0xC123},
		Transport: Transport{
			BTH:   BTH{OpCode: op, PKey: DefaultPKey, DestQP: 0x000D11, AckReq: true, PSN: 0x123456},
			RETH:  RETH{VA: 0x7F0000001000, RKey: 0x1234, DMALen: 1 << 20},
			ImmDt: ImmDt{Imm: 0xCAFEF00D},
		},
	}
	if v6 {
		f.Eth.EtherType = EtherTypeIPv6
	}
	if vlan {
		f.Eth.Tagged = true
		f.Eth.VLAN = VLANTag{PCP: 3, VID: 100}
	}
	return f
}

// TestRoCEv2BuildDecode builds frames for every known opcode over IPv4,
// IPv6 and VLAN with payloads of every residue mod 4, and checks that the
// parser returns the same headers, offsets and payload.
func TestRoCEv2BuildDecode(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	buf := make([]byte, 2048)
	for _, op := range hdrKnownOps {
		for _, v6 := range []bool{false, true} {
			for _, vlan := range []bool{false, true} {
				f := hdrRoCEv2(v6, vlan, op)
				f.Transport = hdrGenTransportOp(r, op)
				payload := make([]byte, r.IntN(300))
				hdrFill(r, payload)
				n, err := f.Build(buf, payload)
				require.NoError(t, err, "%v", op)
				var g RoCEv2
				require.NoError(t, g.Decode(buf[:n]), "%v v6=%v vlan=%v", op, v6, vlan)
				if v6 {
					f.IP4 = IPv4{}
				} else {
					f.IP6 = IPv6{}
				}
				assert.Equal(t, f, g)
				assert.Equal(t, payload, buf[g.PayloadOff:g.PayloadOff+g.PayloadLen])
				assert.Zero(t, (g.PayloadLen+int(g.BTH.PadCnt))%4)
				assert.GreaterOrEqual(t, n, EthernetMinFrame+wireFCS)
				assert.Equal(t, make([]byte, n-g.PayloadOff-g.PayloadLen), buf[g.PayloadOff+g.PayloadLen:n],
					"pad, ICRC, fill and FCS are zero")
			}
		}
	}
}

// TestRoCEv2WriteLayout checks the byte layout of an RDMA WRITE FIRST frame
// built by BuildRoCEv2Write against fields worked out by hand.
func TestRoCEv2WriteLayout(t *testing.T) {
	f := hdrRoCEv2(false, false, RCWriteFirst)
	buf := make([]byte, 256)
	payload := []byte{1, 2, 3, 4, 5}
	n, err := BuildRoCEv2Write(buf, &f, payload)
	require.NoError(t, err)
	// 14 + 20 + 8 + 12 + 16 + 5 + 3 pad + 4 ICRC = 82, + 4 FCS.
	require.Equal(t, 86, n)
	want := hdrHex(t, "020000000001 020000000002 0800"+
		"4568 0044 0000 4000 4011 0000 0a000001 0a000002"+
		"c123 12b7 0030 0000"+
		"0630ffff 00000d11 80123456"+ // WRITE FIRST, PadCnt 3, P_Key default, QP, AckReq, PSN
		"00007f0000001000 00001234 00100000"+
		"0102030405 000000 00000000 00000000")
	// Fill the checksum computed over the header bytes with the field zeroed.
	sum := ipv4HdrChecksum(want[14:34])
	want[24], want[25] = byte(sum>>8), byte(sum)
	assert.Equal(t, want, buf[:n])
	assert.Equal(t, uint16(0xFFFF), rfc1071Sum(buf[14:34], 0))
	assert.Equal(t, 14+20+8+12+16, f.PayloadOff)
	assert.Equal(t, 78, f.ICRCOff)
	assert.Equal(t, 82, f.End())

	f.BTH.OpCode = RCSendOnly
	_, err = BuildRoCEv2Write(buf, &f, payload)
	hdrRequireFieldError(t, err, "BTH", "OpCode", BadValue)
}

// TestRoCEv2CNPFrame builds a CNP and checks the parser sees it as one.
func TestRoCEv2CNPFrame(t *testing.T) {
	f := hdrRoCEv2(false, false, CNPOpCode)
	cnp := NewCNP(0x000D11)
	f.BTH = cnp.BTH
	buf := make([]byte, 128)
	n, err := f.Build(buf, nil)
	require.NoError(t, err)
	// 14 + 20 + 8 + 12 + 16 + 4 = 74 + FCS.
	assert.Equal(t, 78, n)
	var g RoCEv2
	require.NoError(t, g.Decode(buf[:n]))
	assert.True(t, g.BTH.OpCode.IsCNP())
	assert.True(t, g.BTH.BECN)
	assert.Zero(t, g.PayloadLen)
}

// TestRoCEv2DecodeMalformed checks the frame-level checks of the parser.
func TestRoCEv2DecodeMalformed(t *testing.T) {
	build := func(mut func(f *RoCEv2), post func(b []byte) []byte) []byte {
		f := hdrRoCEv2(false, false, RCWriteMiddle)
		if mut != nil {
			mut(&f)
		}
		buf := make([]byte, 256)
		n, err := f.Build(buf, []byte{1, 2, 3, 4, 5, 6, 7, 8})
		require.NoError(t, err)
		b := buf[:n]
		if post != nil {
			b = post(b)
		}
		return b
	}
	fixIP := func(b []byte) {
		b[24], b[25] = 0, 0
		s := ipv4HdrChecksum(b[14:34])
		b[24], b[25] = byte(s>>8), byte(s)
	}
	tests := []struct {
		name        string
		in          []byte
		header, fld string
		problem     Problem
	}{
		{"ARP", build(nil, func(b []byte) []byte { b[12], b[13] = 0x08, 0x06; return b }), "Ethernet", "EtherType", BadValue},
		{"TCP", build(nil, func(b []byte) []byte { b[23] = 6; fixIP(b); return b }), "IPv4", "Protocol", BadValue},
		{"port 4792", build(nil, func(b []byte) []byte { b[37] = 0xB8; return b }), "UDP", "DstPort", BadValue},
		{"UDP length short of IP", build(nil, func(b []byte) []byte { b[39]--; return b }), "UDP", "Length", BadLength},
		{"IP cut", build(nil, func(b []byte) []byte { return b[:40] }), "IPv4", "TotalLength", BadLength},
		{"PadCnt past payload", build(func(f *RoCEv2) {}, func(b []byte) []byte {
			// shrink the datagram to BTH + ICRC and claim 3 pad bytes
			b[17] = 20 + 8 + 12 + 4
			b[39] = 8 + 12 + 4
			fixIP(b)
			b[43] |= 0x30
			return b
		}), "BTH", "PadCnt", BadLength},
		{"no room for BTH", build(nil, func(b []byte) []byte {
			b[17] = 20 + 8 + 8
			b[39] = 8 + 8
			fixIP(b)
			return b
		}), "UDP", "Length", BadLength},
		{"unknown opcode", build(nil, func(b []byte) []byte { b[42] = 0x1F; return b }), "BTH", "OpCode", BadValue},
		{"IPv6 next header TCP", func() []byte {
			f := hdrRoCEv2(true, false, RCWriteMiddle)
			buf := make([]byte, 256)
			n, err := f.Build(buf, nil)
			require.NoError(t, err)
			buf[14+6] = 6
			return buf[:n]
		}(), "IPv6", "NextHeader", BadValue},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var g RoCEv2
			hdrRequireFieldError(t, g.Decode(tc.in), tc.header, tc.fld, tc.problem)
		})
	}
}

// TestIBPacketBuildDecode round-trips native IB packets with and without a GRH.
func TestIBPacketBuildDecode(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	buf := make([]byte, 2048)
	for i := 0; i < 500; i++ {
		p := IBPacket{
			LRH: LRH{VL: hdrU8(r, 4), SL: hdrU8(r, 4), LNH: hdrPick(r, uint8(LNHBTH), uint8(LNHGRH)),
				DLID: uint16(r.Uint32()), SLID: uint16(r.Uint32())},
			Transport: hdrGenTransport(r),
		}
		if p.HasGRH() {
			p.GRH = GRH{TClass: uint8(r.Uint32()), FlowLabel: hdrU32(r, 20), HopLmt: 64, SGID: hdrAddr16(r), DGID: hdrAddr16(r)}
		}
		payload := make([]byte, r.IntN(600))
		hdrFill(r, payload)
		n, err := p.Build(buf, payload)
		require.NoError(t, err)
		assert.Equal(t, int(p.LRH.PktLen)*4+wireVCRC, n)
		var g IBPacket
		require.NoError(t, g.Decode(buf[:n]))
		assert.Equal(t, p, g)
		assert.Equal(t, payload, buf[g.PayloadOff:g.PayloadOff+g.PayloadLen])
		assert.Equal(t, n, g.End())
	}
}

func TestIBPacketDecodeMalformed(t *testing.T) {
	p := IBPacket{LRH: LRH{LNH: LNHGRH}, Transport: Transport{BTH: BTH{OpCode: RCSendOnly}}}
	buf := make([]byte, 256)
	n, err := p.Build(buf, []byte{1, 2, 3, 4})
	require.NoError(t, err)
	var g IBPacket
	hdrRequireFieldError(t, g.Decode(buf[:n-1]), "IB", "VCRC", Truncated)
	bad := append([]byte(nil), buf[:n]...)
	bad[1] = bad[1]&^3 | 1
	hdrRequireFieldError(t, g.Decode(bad), "LRH", "LNH", BadValue)
	bad = append([]byte(nil), buf[:n]...)
	bad[LRHLen+6] = 0x11
	hdrRequireFieldError(t, g.Decode(bad), "GRH", "NxtHdr", BadValue)
	bad = append([]byte(nil), buf[:n]...)
	bad[LRHLen+5]--
	hdrRequireFieldError(t, g.Decode(bad), "GRH", "PayLen", BadLength)
	p.LRH.LNH = 0
	_, err = p.Build(buf, nil)
	hdrRequireFieldError(t, err, "LRH", "LNH", BadValue)
}
