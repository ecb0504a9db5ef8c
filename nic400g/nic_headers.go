package nic400g

import (
	"github.com/fabricmodel/fabricmodel/packet"
)

// Trailer and framing sizes (FACTS 1.1, 1.2).
const (
	icrcBytes = 4
	fcsBytes  = 4
	vcrcBytes = 2
	minFrame  = 64 // Ethernet minimum frame with FCS
)

// qpnBase is the QP number the BTH gives the NIC's QP 0: QPNs 0 and 1
// are InfiniBand's special QPs, the subnet management and general
// services interfaces (QP0 and QP1), which carry no RC traffic, so QP i
// is QPN i + 2 on the wire. Descriptors, counters and traces use the
// index.
const qpnBase = 2

// qpn is the 24-bit QP number on the wire of the QP with index i.
func qpn(i uint32) uint32 { return (i + qpnBase) & 0xFFFFFF }

// ECN codepoint ECT(0) in the IP TOS / traffic class (RFC 3168).
const ect0 = 0x02

// macOf and ipOf are the model's address plan: endpoint n is
// 02:00:00:xx:yy:zz and 10.xx.yy.zz (IPv6 fd00::xx:yy:zz).
func macOf(n uint32) [6]byte { return [6]byte{0x02, 0, 0, byte(n >> 16), byte(n >> 8), byte(n)} }
func ipOf(n uint32) [4]byte  { return [4]byte{10, byte(n >> 16), byte(n >> 8), byte(n)} }
func ip6Of(n uint32) [16]byte {
	return [16]byte{0: 0xfd, 13: byte(n >> 16), 14: byte(n >> 8), 15: byte(n)}
}

// hdr describes one packet for the header writer.
type hdr struct {
	dst     uint32 // peer endpoint
	destQP  uint32
	op      packet.OpCode
	psn     uint32
	payload uint32
	offset  uint64 // payload offset in the message (RETH VA, SES offset)
	length  uint64 // message length (RETH DMA length)
	entropy uint16
	class   uint8
	ackReq  bool
	aeth    *packet.AETH
	msgID   uint16
	som     bool
	eom     bool
	// ctrl is a control frame's flags (sendCtrl), 0 for data and READ
	// requests; sack its SACK bitmap. UET gives control frames headers
	// of their own (encodeUETCtrl).
	ctrl uint16
	sack uint64
	// retx marks a packet sent again (UET: the request's retrans flag);
	// on an ACK, that the packet it answers was. ackPSN is the PSN an
	// ACK answers (UET: CACK_PSN plus ack_psn_offset).
	retx   bool
	ackPSN uint32
}

// writeHeaders encodes h for the NIC's stack into d.Hdr and sets
// d.HdrLen and d.FrameBytes: from the NIC's header template when h is
// like the packet it was made from (hdrTemplate), else by the encoders.
func (n *NIC) writeHeaders(d *packet.Desc, h *hdr) {
	t := n.tmpl
	if t == nil || !n.templated(h) {
		n.encodeHeaders(d, h)
		return
	}
	if t.matches(h) {
		t.write(d, h)
		return
	}
	n.encodeHeaders(d, h)
	t.keep(d, h)
}

// encodeHeaders encodes h for the NIC's stack into d.Hdr and sets
// d.HdrLen and d.FrameBytes. Encoders only fail on values too wide for
// their fields, which the NIC never builds.
func (n *NIC) encodeHeaders(d *packet.Desc, h *hdr) {
	b := d.Hdr[:]
	pad := (4 - h.payload%4) % 4
	transport := packet.BTHLen
	if h.op.HasRETH() {
		transport += packet.RETHLen
	}
	if h.aeth != nil {
		transport += packet.AETHLen
	}
	if h.op == packet.OpCode(0x81) {
		transport += 16 // CNP reserved bytes (FACTS 1.2)
	}
	var off int
	var frame uint32
	switch n.cfg.Stack {
	case LeanNative:
		pktLen := uint16((packet.LRHLen + transport + int(h.payload+pad) + icrcBytes) / 4)
		lrh := packet.LRH{LNH: 2, DLID: uint16(h.dst + 1), SLID: uint16(n.cfg.ID + 1), PktLen: pktLen, SL: h.class}
		off = must(lrh.Encode(b))
		frame = uint32(off+transport) + h.payload + pad + icrcBytes + vcrcBytes
	case UET:
		if h.ctrl != 0 {
			n.encodeUETCtrl(d, h)
			return
		}
		off = n.writeIPUDP(b, h, packet.UETPort, packet.PDSRequestLen+packet.SESStandardLen+int(h.payload))
		pds := packet.PDSRequest{Type: packet.PDSTypeRUDReq, NextHdr: packet.SESHdrRequestStd, PSN: h.psn,
			AckReq: h.ackReq, Retrans: h.retx,
			SPDCID: uint16(n.cfg.ID), DPDCID: uint16(h.dst)}
		off += must(pds.Encode(b[off:]))
		ses := packet.SESStandard{BufferOffset: h.offset, RequestLength: uint32(h.length)}
		ses.Opcode, ses.SOM, ses.EOM, ses.MessageID = sesOpcode(h.op), h.som, h.eom, h.msgID
		if !h.som {
			// after a message's first packet the header data word carries
			// the packet's payload length and offset in the message
			ses.SetPayloadOffset(uint16(h.payload), uint32(h.offset))
		}
		off += must(ses.Encode(b[off:]))
		frame = uint32(off) + h.payload + fcsBytes
		d.FrameBytes = max(frame, minFrame)
		d.HdrLen = uint8(off)
		return
	default:
		off = n.writeIPUDP(b, h, packet.RoCEv2Port, transport+int(h.payload+pad)+icrcBytes)
		frame = uint32(off+transport) + h.payload + pad + icrcBytes + fcsBytes
	}
	bth := packet.BTH{OpCode: h.op, PadCnt: uint8(pad), PKey: 0xFFFF, DestQP: qpn(h.destQP),
		AckReq: h.ackReq, PSN: h.psn & 0xFFFFFF, BECN: h.op == packet.OpCode(0x81)}
	off += must(bth.Encode(b[off:]))
	if h.op.HasRETH() {
		reth := packet.RETH{VA: h.offset, RKey: h.destQP, DMALen: uint32(h.length)}
		off += must(reth.Encode(b[off:]))
	}
	if h.aeth != nil {
		off += must(h.aeth.Encode(b[off:]))
	}
	if h.op == packet.OpCode(0x81) {
		clear(b[off : off+16])
		off += 16
	}
	if n.cfg.Stack != LeanNative {
		frame = max(frame, minFrame)
	}
	d.FrameBytes = frame
	d.HdrLen = uint8(off)
}

// sesOpcode is the SES request opcode of a UET packet the NIC builds
// for the RC operation op names (FACTS 2.6 [R21]): UET_WRITE, UET_READ
// for a read request, UET_SEND. A read response keeps opcode 0 (no
// operation): the model sends it as a request on the responder's own
// PSNs, where UET returns read data in a with-data SES response.
func sesOpcode(op packet.OpCode) uint8 {
	switch {
	case op <= packet.RCSendOnlyImm:
		return packet.SESOpSend
	case op <= packet.RCWriteOnlyImm:
		return packet.SESOpWrite
	case op == packet.RCReadRequest:
		return packet.SESOpRead
	}
	return packet.SESOpNoOp
}

// writeIPUDP writes Ethernet, IP and UDP for a UDP payload of udpPayload
// bytes and returns the offset after UDP.
func (n *NIC) writeIPUDP(b []byte, h *hdr, port uint16, udpPayload int) int {
	eth := packet.Ethernet{Dst: macOf(h.dst), Src: macOf(n.cfg.ID), EtherType: packet.EtherTypeIPv4}
	if n.cfg.GatewayMAC != ([6]byte{}) {
		eth.Dst = n.cfg.GatewayMAC
	}
	udpLen := uint16(packet.UDPLen + udpPayload)
	tos := h.class<<5 | ect0
	sport := 0xC000 | h.entropy&0x3FFF
	if port == packet.UETPort {
		sport = h.entropy
	}
	udp := packet.UDP{SrcPort: sport, DstPort: port, Length: udpLen}
	if n.cfg.Stack == RoCEv2IPv6 {
		eth.EtherType = packet.EtherTypeIPv6
		off := must(eth.Encode(b))
		ip := packet.IPv6{TrafficClass: tos, PayloadLength: udpLen, NextHeader: packet.IPProtoUDP, HopLimit: 64,
			Src: ip6Of(n.cfg.ID), Dst: ip6Of(h.dst)}
		off += must(ip.Encode(b[off:]))
		return off + must(udp.Encode(b[off:]))
	}
	off := must(eth.Encode(b))
	ip := packet.IPv4{IHL: 5, TOS: tos, TotalLength: uint16(packet.IPv4MinLen) + udpLen, TTL: 64,
		Protocol: packet.IPProtoUDP, Src: ipOf(n.cfg.ID), Dst: ipOf(h.dst), Flags: 2}
	// its checksum computed over the header as it is written
	off += must(ip.EncodeChecksummed(b[off:]))
	return off + must(udp.Encode(b[off:]))
}

// must unwraps an encoder result; a failure is a broken invariant of the
// NIC (it never builds a field too wide), not a user error.
func must(n int, err error) int {
	if err != nil {
		panic("nic400g: header encoding: " + err.Error())
	}
	return n
}
