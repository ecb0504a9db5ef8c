package nic400g

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// A UET NIC's control frames carry the PDS header UET gives them, not a
// data packet's request and SES headers, and decode as UET frames of
// their own length: a plain ACK (64 bytes with the FCS, the Ethernet
// minimum), ACK_CC under NSCC and EQDS (78), a NACK with its code (64),
// a CNP as an ACK marked ecn_marked, and an EQDS pull as a credit ACK_CC
// that carries its grant.
func TestUETControlFramesCarryPDSResponses(t *testing.T) {
	for _, c := range []struct {
		cc    string
		flags uint16
		typ   packet.PDSType
		frame uint32
		check func(t *testing.T, u *packet.UET)
	}{
		{"dcqcn", flagAck, packet.PDSTypeAck, 64, func(t *testing.T, u *packet.UET) {
			require.Equal(t, uint32(76), u.Ack.CAckPSN, "the last PSN acknowledged, before the 77 expected")
			require.False(t, u.Ack.ECNMarked)
		}},
		{"dcqcn", flagAck | flagECE, packet.PDSTypeAck, 64, func(t *testing.T, u *packet.UET) { require.True(t, u.Ack.ECNMarked) }},
		{"dcqcn", flagCNP, packet.PDSTypeAck, 64, func(t *testing.T, u *packet.UET) { require.True(t, u.Ack.ECNMarked) }},
		{"dcqcn", flagNAK, packet.PDSTypeNack, 64, func(t *testing.T, u *packet.UET) {
			require.Equal(t, packet.NackPSNOutOfWindow, u.Nack.Code)
			require.Equal(t, uint32(77), u.Nack.NackPSN)
		}},
		{"nscc", flagTrimNAK, packet.PDSTypeNack, 64, func(t *testing.T, u *packet.UET) { require.Equal(t, packet.NackTrimmed, u.Nack.Code) }},
		{"eqds", flagTrimNAK | flagNAK, packet.PDSTypeNack, 64, func(t *testing.T, u *packet.UET) {
			require.Equal(t, packet.NackRODOutOfOrder, u.Nack.Code)
		}},
		{"nscc", flagAck, packet.PDSTypeAckCC, 78, func(t *testing.T, u *packet.UET) {
			require.Equal(t, packet.CCTypeNSCC, u.AckCC.CCType)
			require.Equal(t, uint64(0b1011), u.AckCC.SACKBitmap)
		}},
		{"eqds", flagPull, packet.PDSTypeAckCC, 78, func(t *testing.T, u *packet.UET) {
			require.Equal(t, packet.CCTypeCredit, u.AckCC.CCType)
			require.Equal(t, uint32(8192), u.AckCC.Credit().Credit)
		}},
	} {
		cfg := DefaultConfig(2)
		cfg.CC, cfg.Stack = c.cc, UET
		n, err := New(rtlmodel.NewEngine(rtlmodel.Options{Seed: 1}), "nic", cfg, &packet.DescPool{})
		require.NoError(t, err)
		q := n.qp(5)
		q.peer, q.peerQP = 1, 3
		d := n.sendCtrl(q, 0, c.flags, 77, 0b1011)
		if c.flags&flagPull != 0 {
			n.setPullCredit(d, 8192)
		}
		var u packet.UET
		require.NoError(t, u.Decode(d.Header()), "%s %#x", c.cc, c.flags)
		require.Equal(t, c.typ, u.PDSType, "%s %#x", c.cc, c.flags)
		require.Equal(t, c.frame, d.FrameBytes, "%s %#x", c.cc, c.flags)
		require.Equal(t, uint16(1), u.Ack.DPDCID|u.AckCC.DPDCID|u.Nack.DPDCID, "the peer's PDC")
		c.check(t, &u)
	}
}
