package nic400g

import (
	"encoding/binary"
	"math"

	"github.com/fabricmodel/fabricmodel/packet"
)

// uetCtrlOff is where a UET control frame's PDS header begins: after
// Ethernet, IPv4 and UDP (the UET stack is IPv4).
const uetCtrlOff = packet.EthernetLen + packet.IPv4MinLen + packet.UDPLen

// encodeUETCtrl encodes a UET NIC's control frame h (h.ctrl its flags)
// with the PDS header UET gives it (FACTS 2.6), where a data packet has
// a PDS request and an SES header:
//   - a NAK or trim NACK is a PDS NACK naming its PSN: TRIMMED for a
//     trimmed packet, ROD_OOO for a packet an EQDS receiver dropped out of
//     order and pulls again (its trim NACK flagged as a NAK),
//     PSN_OOR_WINDOW for a sequence error;
//   - an EQDS pull, and the ACKs of the controls that read UET's CC state
//     (NSCC, EQDS), are ACK_CC headers, credit or NSCC, with the SACK
//     bitmap;
//   - other ACKs are plain PDS ACKs, the ECN echo in ecn_marked; a CNP,
//     which UET does not have, is a plain ACK with ecn_marked set.
//
// The CC state word carries an EQDS pull's credit (setPullCredit); the
// rest of it, and NSCC's fields, are left 0, as the model hands the
// congestion controls their feedback in the descriptor.
func (n *NIC) encodeUETCtrl(d *packet.Desc, h *hdr) {
	b := d.Hdr[:]
	ack := packet.PDSAck{Type: packet.PDSTypeAck, CAckPSN: h.psn, SPDCID: uint16(n.cfg.ID), DPDCID: uint16(h.dst),
		ECNMarked: h.ctrl&(flagECE|flagCNP) != 0, Retrans: h.retx, AckPSNOffset: ackPSNOffset(h)}
	var off int
	switch {
	case h.ctrl&(flagNAK|flagTrimNAK) != 0:
		code := packet.NackPSNOutOfWindow
		switch {
		case h.ctrl&(flagNAK|flagTrimNAK) == flagNAK|flagTrimNAK:
			code = packet.NackRODOutOfOrder
		case h.ctrl&flagTrimNAK != 0:
			code = packet.NackTrimmed
		}
		nack := packet.PDSNack{Code: code, NackPSN: h.psn, SPDCID: ack.SPDCID, DPDCID: ack.DPDCID}
		off = n.writeIPUDP(b, h, packet.UETPort, packet.PDSNackLen)
		off += must(nack.Encode(b[off:]))
	case h.ctrl&flagCNP == 0 && (h.ctrl&flagPull != 0 || n.cfg.CC == "nscc" || n.cfg.CC == "eqds"):
		ack.Type = packet.PDSTypeAckCC
		// the bitmap's bit 0 is the PSN expected, the one after CACK_PSN
		cc := packet.PDSAckCC{PDSAck: ack, CCType: packet.CCTypeCredit, SACKPSNOffset: 1, SACKBitmap: h.sack}
		if n.cfg.CC == "nscc" {
			cc.CCType = packet.CCTypeNSCC
		}
		off = n.writeIPUDP(b, h, packet.UETPort, packet.PDSAckCCLen)
		off += must(cc.Encode(b[off:]))
	default:
		off = n.writeIPUDP(b, h, packet.UETPort, packet.PDSAckLen)
		off += must(ack.Encode(b[off:]))
	}
	d.HdrLen = uint8(off)
	d.FrameBytes = max(uint32(off)+fcsBytes, minFrame)
}

// ackPSNOffset is an ACK's ack_psn_offset, a signed 16-bit step from
// CACK_PSN to the PSN of the packet it answers. A PSN 2^15 or more from
// CACK_PSN (an old duplicate, or one ahead in a Config.RecvWindow over
// 2^15) does not fit: the ACK has 0 and names CACK_PSN alone. Other
// control frames have 0.
func ackPSNOffset(h *hdr) uint16 {
	if h.ctrl&flagAck == 0 || h.ctrl&(flagNAK|flagTrimNAK|flagPull|flagCNP) != 0 {
		return 0
	}
	d := PSNDiff(PSN(h.ackPSN), PSN(h.psn))
	if d < math.MinInt16 || d > math.MaxInt16 {
		return 0
	}
	return uint16(int16(d))
}

// setPullCredit gives the pull d its credit, which the pacer grants once
// sendCtrl has built the frame: in the descriptor, and on UET in the
// CC state word of its credit ACK_CC header (packet.CreditState).
func (n *NIC) setPullCredit(d *packet.Desc, credit uint32) {
	d.Meta.Credit = credit
	if n.cfg.Stack != UET || int(d.HdrLen) != uetCtrlOff+packet.PDSAckCCLen {
		return
	}
	h := d.Hdr[uetCtrlOff:]
	if packet.PDSType(h[0]>>3) != packet.PDSTypeAckCC || h[12]>>4 != packet.CCTypeCredit {
		return
	}
	binary.BigEndian.PutUint64(h[24:], packet.CreditState{Credit: credit}.Pack())
}
