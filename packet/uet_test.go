package packet

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hdrUET draws a UET frame with a random PDS header of type t and, for
// requests, a random SES header of kind ses.
func hdrUET(r *rand.Rand, t PDSType, ses uint8, v6 bool) UET {
	u := UET{
		Eth: Ethernet{Dst: hdrMAC(r), Src: hdrMAC(r), EtherType: EtherTypeIPv4},
		IP4: IPv4{IHL: 5, TTL: 64, Src: [4]byte{10, 0, 0, 1}, Dst: [4]byte{10, 0, 0, 2}},
		UDP: UDP{SrcPort: uint16(r.Uint32())}, PDSType: t,
	}
	if v6 {
		u.Eth.EtherType = EtherTypeIPv6
		u.IP6 = IPv6{FlowLabel: hdrU32(r, 20), HopLimit: 64, Src: hdrAddr16(r), Dst: hdrAddr16(r)}
		u.IP4 = IPv4{}
	}
	switch t {
	case PDSTypeAck:
		u.Ack = *hdrCaseNamed(nil, "PDSAck").gen(r).(*PDSAck)
	case PDSTypeAckCC:
		u.AckCC = *hdrCaseNamed(nil, "PDSAckCC").gen(r).(*PDSAckCC)
	case PDSTypeNack:
		u.Nack = *hdrCaseNamed(nil, "PDSNack").gen(r).(*PDSNack)
	default:
		for u.Req.Type != t {
			u.Req = *hdrCaseNamed(nil, "PDSRequest").gen(r).(*PDSRequest)
		}
		u.Req.NextHdr = ses
		if ses == SESHdrRequestSmall {
			u.SESSmall = *hdrCaseNamed(nil, "SESSmall").gen(r).(*SESSmall)
		} else {
			u.SESStandard = *hdrCaseNamed(nil, "SESStandard").gen(r).(*SESStandard)
		}
	}
	return u
}

func TestUETBuildDecode(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 13))
	buf := make([]byte, 2048)
	types := []PDSType{PDSTypeRUDReq, PDSTypeRODReq, PDSTypeRUDCCReq, PDSTypeRODCCReq, PDSTypeAck, PDSTypeAckCC, PDSTypeNack}
	for i := 0; i < 400; i++ {
		ty := types[i%len(types)]
		u := hdrUET(r, ty, hdrPick(r, SESHdrRequestSmall, SESHdrRequestStd), i%3 == 0)
		payload := make([]byte, r.IntN(200))
		hdrFill(r, payload)
		n, err := u.Build(buf, payload)
		require.NoError(t, err)
		var g UET
		require.NoError(t, g.Decode(buf[:n]))
		assert.Equal(t, u, g, "%v", ty)
		assert.Equal(t, payload, buf[g.PayloadOff:g.End()])
	}
}

func TestUETMatchesStacks(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 15))
	buf := make([]byte, 8192)
	u := hdrUET(r, PDSTypeRUDReq, SESHdrRequestSmall, false)
	n, err := u.Build(buf, make([]byte, 4096))
	require.NoError(t, err)
	assert.Equal(t, StackUETSmall.FrameBytes(4096), n)
	u = hdrUET(r, PDSTypeRUDReq, SESHdrRequestStd, false)
	n, err = u.Build(buf, make([]byte, 4096))
	require.NoError(t, err)
	assert.Equal(t, StackUETStandard.FrameBytes(4096), n)
	u = hdrUET(r, PDSTypeNack, 0, false)
	n, err = u.Build(buf, nil)
	require.NoError(t, err)
	assert.Equal(t, EthernetMinFrame+wireFCS, n, "a NACK is padded to the minimum frame")
}

func TestUETMalformed(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 17))
	buf := make([]byte, 512)
	u := hdrUET(r, PDSTypeRUDReq, SESHdrRequestStd, false)
	n, err := u.Build(buf, make([]byte, 8))
	require.NoError(t, err)
	frame := buf[:n]
	var g UET
	mut := func(i int, v byte) []byte {
		b := append([]byte(nil), frame...)
		b[i] = v
		return b
	}
	pds := EthernetLen + IPv4MinLen + UDPLen
	hdrRequireFieldError(t, g.Decode(mut(pds-5, 0xB7)), "UDP", "DstPort", BadValue)
	hdrRequireFieldError(t, g.Decode(mut(pds, byte(PDSTypeControl)<<3)), "PDS", "Type", BadValue)
	hdrRequireFieldError(t, g.Decode(mut(pds, byte(PDSTypeRUDReq)<<3|2)), "PDSRequest", "NextHdr", BadValue)
	hdrRequireFieldError(t, g.Decode(frame[:pds+20]), "IPv4", "TotalLength", BadLength)

	u.Req.NextHdr = SESHdrRequestMedium
	_, err = u.Build(buf, nil)
	hdrRequireFieldError(t, err, "PDSRequest", "NextHdr", BadValue)
	u.PDSType = PDSTypeControl
	_, err = u.Build(buf, nil)
	hdrRequireFieldError(t, err, "PDS", "Type", BadValue)
}

// FuzzDecodeUET fuzzes the UET frame parser; on success a rebuild must
// reproduce the input up to the end of the IP packet, apart from an IPv4
// checksum of 0xFFFF standing for 0x0000.
func FuzzDecodeUET(f *testing.F) {
	r := rand.New(rand.NewPCG(18, 19))
	buf := make([]byte, 1024)
	for i, ty := range []PDSType{PDSTypeRUDReq, PDSTypeRODCCReq, PDSTypeAck, PDSTypeAckCC, PDSTypeNack} {
		u := hdrUET(r, ty, hdrPick(r, SESHdrRequestSmall, SESHdrRequestStd), i%2 == 1)
		n, err := u.Build(buf, make([]byte, r.IntN(40)))
		require.NoError(f, err)
		f.Add(append([]byte(nil), buf[:n]...))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var g UET
		if err := g.Decode(b); err != nil {
			var fe *FieldError
			require.ErrorAs(t, err, &fe)
			return
		}
		out := make([]byte, len(b)+EthernetMinFrame+wireFCS)
		h := g
		_, err := h.Build(out, b[g.PayloadOff:g.End()])
		require.NoError(t, err)
		if !g.IsIPv6() {
			ck := g.Eth.Len() + 10
			copy(out[ck:ck+2], b[ck:ck+2])
		}
		require.Equal(t, b[:g.End()], out[:g.End()])
	})
}
