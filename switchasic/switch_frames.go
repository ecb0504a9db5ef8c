package switchasic

import (
	"encoding/binary"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/serdes"
)

// ECN codepoints in the low two bits of the IPv4 TOS / IPv6 traffic class.
const (
	ecnMask = 0x03
	ecnCE   = 0x03
)

// ipOffset returns the offset of the IP header in a frame's header bytes
// and whether it is IPv6 (an 802.1Q tag moves it by 4 bytes).
func ipOffset(h []byte) (off int, v6 bool, ok bool) {
	if len(h) < packet.EthernetLen {
		return 0, false, false
	}
	off = 12
	et := binary.BigEndian.Uint16(h[off:])
	if et == packet.EtherTypeVLAN {
		off += 4
		if len(h) < off+2 {
			return 0, false, false
		}
		et = binary.BigEndian.Uint16(h[off:])
	}
	off += 2
	switch et {
	case packet.EtherTypeIPv4:
		return off, false, len(h) >= off+packet.IPv4MinLen
	case packet.EtherTypeIPv6:
		return off, true, len(h) >= off+packet.IPv6Len
	}
	return 0, false, false
}

// ect reports whether the packet is ECN-capable (ECT(0), ECT(1) or CE).
func (sw *Switch) ect(p *packet.Desc) bool {
	h := p.Header()
	off, v6, ok := ipOffset(h)
	if !ok {
		return false
	}
	if v6 {
		return (binary.BigEndian.Uint16(h[off:])>>4)&ecnMask != 0
	}
	return h[off+1]&ecnMask != 0
}

// markCE sets the CE codepoint in the real header bytes, as the egress
// pipeline does (setTOS).
func (sw *Switch) markCE(p *packet.Desc) { setTOS(p, ecnMask, ecnCE) }

// remarkClass writes class c into the DSCP of p's IP header, the class
// bits a switch reads (DSCP = c·8, as the NICs write it), keeping the ECN
// bits: a switch that trims a packet remarks its DSCP to the trim
// class's (SONiC's packet trimming: trim to a size, set a new DSCP, send
// on another queue; its length fields are left as they were,
// sonic-net/sonic-mgmt:docs/testplan/Packet_Trimming_Testplan.md).
func (sw *Switch) remarkClass(p *packet.Desc, c uint8) { setTOS(p, 0xFC, c<<5) }

// setTOS writes bits under mask into the IPv4 TOS byte or IPv6 traffic
// class of p's header, updating the IPv4 header checksum incrementally
// (RFC 1624). A header cut inside its IP header is left alone.
func setTOS(p *packet.Desc, mask, bits uint8) {
	h := p.Header()
	off, v6, ok := ipOffset(h)
	if !ok {
		return
	}
	if v6 {
		w := binary.BigEndian.Uint16(h[off:])
		binary.BigEndian.PutUint16(h[off:], w&^(uint16(mask)<<4)|uint16(bits&mask)<<4)
		return
	}
	old := binary.BigEndian.Uint16(h[off:])
	h[off+1] = h[off+1]&^mask | bits&mask
	nw := binary.BigEndian.Uint16(h[off:])
	sum := binary.BigEndian.Uint16(h[off+10:])
	binary.BigEndian.PutUint16(h[off+10:], packet.UpdateChecksum16(sum, old, nw))
}

// pfcFrameBytes is a PFC frame's length: a minimum MAC control frame.
const pfcFrameBytes = 64

// pfcFrame builds the PFC frame port sends (PFCHeader) as a 64-byte MAC
// control frame from the port's MAC (Config.MAC), its header bytes
// encoded (packet.PFC) and its classes and quanta also in the
// descriptor's tail, where receivers read them.
func (sw *Switch) pfcFrame(port int, xoff, xon uint8) *packet.Desc {
	p := sw.pool.Get()
	p.Kind = packet.KindPFC
	p.FrameBytes = pfcFrameBytes
	h := PFCHeader(sw.PortMAC(port), xoff, xon)
	n, err := h.Encode(p.Hdr[:])
	if err != nil {
		panic("switchasic: PFC frame: " + err.Error()) // Hdr holds HeaderCap bytes, more than PFCLen
	}
	p.HdrLen = uint8(n)
	pfc := p.EditTail()
	pfc.PFCClasses, pfc.PFCQuanta = h.Classes, h.Quanta
	return p
}

// PFCHeader is the header of the PFC frame a port with MAC src sends:
// XOFF with the largest pause, 0xFFFF quanta, for the classes in xoff,
// XON (quanta 0) for those in xon, both in the class-enable vector
// (802.1Qbb; FACTS 2.7 [R52]). A class in both is paused.
func PFCHeader(src [6]byte, xoff, xon uint8) packet.PFC {
	h := packet.PFC{Src: src, Classes: xoff | xon}
	for c := 0; c < 8; c++ {
		if xoff&(1<<uint(c)) != 0 {
			h.Quanta[c] = 0xFFFF
		}
	}
	return h
}

// pauseTime is quanta × 512 bit times at port i's MAC rate, rounded up
// (FACTS 2.7: a quantum is 512 bit times).
func (sw *Switch) pauseTime(i int, quanta uint16) rtlmodel.Time {
	if sw.pauseSer[i] == nil {
		sw.pauseSer[i] = serdes.NewSerializer(sw.ports[i].Lanes.MACRate())
	}
	return sw.pauseSer[i].CeilTime(uint64(quanta) * 512)
}
