package nic400g

import (
	"encoding/binary"

	"github.com/fabricmodel/fabricmodel/packet"
)

// The data packets of a message between its first and its last differ in
// their headers only in the PSN, the AckReq bit and the UDP source port
// (the path entropy): the addresses, lengths, opcode, TOS and so the IPv4
// checksum are the same, and the UDP checksum is 0. So a RoCEv2 (IPv4) NIC
// keeps the headers of the last such packet it encoded, and builds the
// next one like it by copying them and writing those three fields, where
// encoding takes each header's fields one by one and sums the IPv4
// header again. The bytes are the encoders' (TestHeaderTemplateWritesWhatTheEncodersWrite).

// templateLen is what a templated packet's headers take: Ethernet, IPv4
// without options, UDP and a BTH.
const templateLen = 14 + packet.IPv4MinLen + packet.UDPLen + packet.BTHLen

// Offsets of the patched fields: the UDP source port, and the BTH's word
// of AckReq, reserved bits and PSN.
const (
	tmplSrcPort = 14 + packet.IPv4MinLen
	tmplPSNWord = tmplSrcPort + packet.UDPLen + 8
)

// hdrTemplate is the headers of the last templated packet and what they
// were built from, but for the patched fields.
type hdrTemplate struct {
	ok      bool
	class   uint8
	op      packet.OpCode
	dst     uint32
	destQP  uint32
	payload uint32
	frame   uint32
	b       [templateLen]byte
}

// templated reports whether h's headers can come from a template: a
// RoCEv2 IPv4 packet with a BTH alone (no RETH, AETH or CNP body).
func (n *NIC) templated(h *hdr) bool {
	return n.cfg.Stack == RoCEv2IPv4 && h.aeth == nil && !h.op.HasRETH() && h.op != packet.OpCode(0x81)
}

// matches reports whether t was made from a packet like h.
func (t *hdrTemplate) matches(h *hdr) bool {
	return t.ok && t.dst == h.dst && t.destQP == h.destQP && t.op == h.op && t.payload == h.payload && t.class == h.class
}

// write builds h's headers in d from t.
func (t *hdrTemplate) write(d *packet.Desc, h *hdr) {
	b := d.Hdr[:templateLen]
	copy(b, t.b[:])
	binary.BigEndian.PutUint16(b[tmplSrcPort:], 0xC000|h.entropy&0x3FFF)
	var ack uint32
	if h.ackReq {
		ack = 1 << 31
	}
	binary.BigEndian.PutUint32(b[tmplPSNWord:], ack|h.psn&0xFFFFFF)
	d.HdrLen = templateLen
	d.FrameBytes = t.frame
}

// keep makes t the headers just encoded in d from h.
func (t *hdrTemplate) keep(d *packet.Desc, h *hdr) {
	if d.HdrLen != templateLen {
		return
	}
	copy(t.b[:], d.Hdr[:templateLen])
	t.ok, t.class, t.op, t.dst, t.destQP, t.payload, t.frame = true, h.class, h.op, h.dst, h.destQP, h.payload, d.FrameBytes
}
