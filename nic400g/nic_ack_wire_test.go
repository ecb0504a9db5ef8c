package nic400g

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// ackOnWire is what a RoCEv2 ACK or READ response says on the wire: its
// BTH opcode and PSN and its AETH's MSN.
type ackOnWire struct {
	op  packet.OpCode
	psn uint32
	msn uint32
}

// A RoCEv2 responder's ACK names the last PSN it acknowledges, not the
// next one it expects, and its AETH counts the request messages executed
// (MSN): a WRITE when its last packet is placed, a READ when its request
// is accepted, which the READ response's AETH carries too (IBTA, as Linux
// rxe's responder does).
func TestRoCEACKsNameTheLastPSNAndTheMessagesExecuted(t *testing.T) {
	ca, cb := DefaultConfig(1), DefaultConfig(2)
	cb.AckEvery = 1
	e, a, _ := backToBack(t, ca, cb)
	var data []uint32
	var acks []ackOnWire
	onFrames(e, func(link string, d *packet.Desc) {
		switch {
		case link == "wire/a>b" && d.Meta.Flags&(flagData|flagReadReq) != 0:
			data = append(data, roceBTH(t, d).PSN)
		case link == "wire/b>a" && d.Meta.Flags&(flagAck|flagData) != 0:
			bth := roceBTH(t, d)
			var aeth packet.AETH
			require.NoError(t, aeth.Decode(d.Hdr[14+20+8+packet.BTHLen:d.HdrLen]))
			acks = append(acks, ackOnWire{bth.OpCode, bth.PSN, aeth.MSN})
		}
	})
	attachDriver(t, e, a, []WorkRequest{
		{QP: 3, Dst: 2, DestQP: 5, Bytes: 3 * 4096, Posted: 1000},
		{QP: 3, Dst: 2, DestQP: 5, Bytes: 4096, Posted: 1000},
		{QP: 3, Dst: 2, DestQP: 5, Op: OpRead, Bytes: 4096, Posted: 1000},
	})
	require.NoError(t, e.Run(rtlmodel.Forever))
	require.Len(t, data, 5, "four WRITE packets and a READ request")
	p0 := data[0]
	for i, psn := range data {
		require.Equal(t, (p0+uint32(i))&0xFFFFFF, psn)
	}
	ack, rsp := packet.RCAcknowledge, packet.RCReadResponseOnly
	require.Equal(t, []ackOnWire{
		{ack, p0, 0}, {ack, p0 + 1, 0}, {ack, p0 + 2, 1}, // the first WRITE's three packets
		{ack, p0 + 3, 2}, // the second WRITE
		{rsp, p0 + 4, 3}, // the READ, executed once accepted
	}, acks)
}

// A UET ACK's CACK_PSN covers every PSN up to and including itself, its
// ack_psn_offset leads to the packet it answers and its retrans flag
// says that packet was sent again; an ACK_CC's SACK bitmap starts at the
// PSN after CACK_PSN (sack_psn_offset 1). A resent request carries the
// retrans flag.
func TestUETACKsNameThePacketTheyAnswer(t *testing.T) {
	for _, cc := range []string{"dcqcn", "nscc"} {
		cfg := DefaultConfig(2)
		cfg.CC, cfg.Stack = cc, UET
		n, err := New(rtlmodel.NewEngine(rtlmodel.Options{Seed: 1}), "nic", cfg, &packet.DescPool{})
		require.NoError(t, err)
		q := n.qp(5)
		q.peer, q.peerQP = 1, 3
		q.rw, err = NewRecvWindow(cfg.RecvWindow, 10)
		require.NoError(t, err)
		for _, psn := range []PSN{10, 11, 14} {
			q.rw.Receive(psn)
		}
		q.lastPSN, q.lastRetx = 14, true
		n.sendAck(q, 0, true)
		require.Equal(t, 1, n.ctrl.Len())
		d := n.ctrl.Pop()
		require.Equal(t, uint32(12), d.Meta.PSN, "the descriptor keeps the PSN expected")
		var u packet.UET
		require.NoError(t, u.Decode(d.Header()))
		ack := u.Ack
		if cc == "nscc" {
			ack = u.AckCC.PDSAck
			require.Equal(t, uint16(1), u.AckCC.SACKPSNOffset, cc)
			require.Equal(t, uint64(0b100), u.AckCC.SACKBitmap, "PSN 14 is bit 2 from 12")
		}
		require.Equal(t, uint32(11), ack.CAckPSN, cc)
		require.Equal(t, uint16(3), ack.AckPSNOffset, cc)
		require.True(t, ack.Retrans, cc)

		// a duplicate of PSN 10, sent first: a step back from CACK_PSN
		q.lastPSN, q.lastRetx = 10, false
		n.sendAck(q, 0, true)
		require.NoError(t, u.Decode(n.ctrl.Pop().Header()))
		ack = u.Ack
		if cc == "nscc" {
			ack = u.AckCC.PDSAck
		}
		require.Equal(t, uint16(0xFFFF), ack.AckPSNOffset, "-1 as a signed 16-bit offset")
		require.False(t, ack.Retrans)
	}

	var req packet.UET
	cfg := DefaultConfig(1)
	cfg.Stack = UET
	n, err := New(rtlmodel.NewEngine(rtlmodel.Options{Seed: 1}), "nic", cfg, &packet.DescPool{})
	require.NoError(t, err)
	for _, retx := range []bool{false, true} {
		d := n.pool.Get()
		n.writeHeaders(d, &hdr{dst: 2, destQP: 5, op: packet.RCWriteOnly, psn: 7, payload: 4096, length: 4096, retx: retx})
		frame := make([]byte, d.FrameBytes-4) // the payload zeros, no FCS
		copy(frame, d.Header())
		require.NoError(t, req.Decode(frame))
		require.Equal(t, 4096, req.PayloadLen, "the IP and UDP lengths count the payload")
		require.Equal(t, packet.SESHdrRequestStd, req.Req.NextHdr, "a standard SES request follows")
		require.Equal(t, uint32(7), req.Req.PSN)
		require.Equal(t, uint32(4096), req.SESStandard.RequestLength)
		require.Equal(t, retx, req.Req.Retrans)
	}
}
