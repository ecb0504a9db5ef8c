package nic400g

import (
	"encoding/binary"

	"github.com/fabricmodel/fabricmodel/packet"
)

// hasICRC reports whether the NIC seals and checks an ICRC: RoCEv2 and
// native IB packets end with one, UET (FACTS 1.4) has none, and
// Config.NoICRC turns the model's computation off.
func (n *NIC) hasICRC() bool { return n.cfg.Stack != UET && !n.cfg.NoICRC }

// packetICRC returns the ICRC of the packet in d: over its headers from the
// IP header (RoCEv2, with the LRH stand-in and masks of packet.RoCEv2ICRC)
// or from the LRH (native IB, packet.IBICRC), then over zeros for the
// payload and pad whose length the IP or LRH length field states
// (descriptors carry header bytes only, ARCHITECTURE "Fidelity"; sender and
// receiver model the payload alike, so a flipped header byte shows as a
// mismatch as on real hardware, and payload corruption is what the PHY's
// FCS model catches). ok is false when the headers do not parse or the
// length fields do not add up, which a receiver treats as a failed check.
func (n *NIC) packetICRC(d *packet.Desc) (crc uint32, ok bool) {
	h := d.Hdr[:d.HdrLen]
	var body int
	var err error
	if n.cfg.Stack == LeanNative {
		if len(h) < packet.LRHLen {
			return 0, false
		}
		crc, err = packet.IBICRC(h)
		body = int(binary.BigEndian.Uint16(h[4:])&0x07FF)*4 - len(h) - packet.ICRCLen
	} else {
		const eth = 14
		if len(h) < eth+1 {
			return 0, false
		}
		ip := h[eth:]
		crc, err = packet.RoCEv2ICRC(ip)
		if err == nil {
			if ip[0]>>4 == 4 {
				body = int(binary.BigEndian.Uint16(ip[2:])) - len(ip) - packet.ICRCLen
			} else {
				body = packet.IPv6Len + int(binary.BigEndian.Uint16(ip[4:])) - len(ip) - packet.ICRCLen
			}
		}
	}
	if err != nil || body < 0 {
		return 0, false
	}
	return packet.CRC32ZeroExtend(crc, body), true
}

// sealICRC fills the ICRC of a packet the NIC built (Meta.ICRC).
func (n *NIC) sealICRC(d *packet.Desc) {
	if !n.hasICRC() {
		return
	}
	c, ok := n.packetICRC(d)
	if !ok {
		panic("nic400g: ICRC of a packet the NIC built")
	}
	d.Meta.ICRC = c
}

// icrcGood checks a received packet's ICRC. A trimmed packet lost its
// trailer with its payload and is not checked (its header is what the
// receiver acts on, FACTS 2.5).
func (n *NIC) icrcGood(d *packet.Desc) bool {
	if !n.hasICRC() || d.Trimmed {
		return true
	}
	c, ok := n.packetICRC(d)
	return ok && c == d.Meta.ICRC
}
