package nic400g

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// A NIC with a header template writes, for every packet, the bytes, length
// and frame size the encoders write: over random runs of packets that
// change their PSN, AckReq and entropy from packet to packet and, now and
// then, their peer, QP, opcode, payload or class, and packets the template
// does not cover (RETH, AETH, CNP) between them. Many of the packets
// come from the template (9,002 of the 20,000).
func TestHeaderTemplateWritesWhatTheEncodersWrite(t *testing.T) {
	rng := rtlmodel.NewRNG(5, "template")
	n := &NIC{cfg: DefaultConfig(3), tmpl: &hdrTemplate{}}
	plain := &NIC{cfg: DefaultConfig(3)} // no template: the encoders alone
	ops := []packet.OpCode{packet.RCWriteMiddle, packet.RCWriteMiddle, packet.RCWriteLast, packet.RCSendMiddle,
		packet.RCWriteFirst, packet.RCReadRequest, packet.OpCode(0x81)}
	h := hdr{dst: 9, destQP: 40, op: packet.RCWriteMiddle, payload: 4096}
	fromTemplate := 0
	for i := 0; i < 20_000; i++ {
		h.psn = uint32(rng.Intn(1 << 24))
		h.ackReq = rng.Intn(4) == 0
		h.entropy = uint16(rng.Intn(1 << 16))
		h.aeth = nil
		switch rng.Intn(40) {
		case 0:
			h.dst = uint32(rng.Intn(1000))
		case 1:
			h.destQP = uint32(rng.Intn(1 << 24))
		case 2:
			h.op = ops[rng.Intn(len(ops))]
			h.offset, h.length = uint64(rng.Intn(1<<20)), 1<<20
		case 3:
			h.payload = uint32(1 + rng.Intn(4096))
		case 4:
			h.class = uint8(rng.Intn(8))
		case 5:
			h.aeth = &packet.AETH{MSN: uint32(rng.Intn(1 << 24))}
		}
		hit := n.templated(&h) && n.tmpl.matches(&h)
		got, want := &packet.Desc{}, &packet.Desc{}
		n.writeHeaders(got, &h)
		plain.writeHeaders(want, &h)
		require.Equal(t, want.Hdr, got.Hdr, "packet %d (%+v), from the template: %v", i, h, hit)
		require.Equal(t, want.HdrLen, got.HdrLen)
		require.Equal(t, want.FrameBytes, got.FrameBytes)
		if hit {
			fromTemplate++
		}
	}
	t.Logf("%d of 20,000 packets from the template", fromTemplate)
	require.Greater(t, fromTemplate, 5_000)
}
