package switchasic

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/packet"
)

// A switch routes frames at layer 3, and rewrites each one it forwards as
// a router does: the egress port's MAC becomes the Ethernet source and
// the next hop's the destination, the IPv4 TTL or IPv6 hop limit drops by
// one and the IPv4 header checksum follows it (RFC 1624). A frame that
// arrives with a TTL of 1 or 0 is dropped instead (drop_ttl_expired).
// RoCEv2's ICRC leaves the TTL and the checksum out (FACTS 1.3) and covers
// no Ethernet byte, so the rewrite keeps it valid.

// portAddrs is the MAC addresses the rewrite writes.
type portAddrs struct {
	both  [][12]byte // the MAC of the device on port i, then port i's (Config.MAC)
	known []bool     // whether the device's MAC on port i is known
}

// newPortAddrs gives ports' MACs from the switch's base MAC, their
// neighbours' unknown.
func newPortAddrs(base [6]byte, ports int) portAddrs {
	a := portAddrs{both: make([][12]byte, ports), known: make([]bool, ports)}
	for i := range a.both {
		m := base
		low := uint16(m[4])<<8 | uint16(m[5]) + uint16(i)
		m[4], m[5] = byte(low>>8), byte(low)
		copy(a.both[i][6:], m[:])
	}
	return a
}

// PortMAC returns port i's MAC address: the switch's base MAC with i added
// to its last two bytes (Config.MAC), the source of every frame the port
// sends, PFC frames among them.
func (sw *Switch) PortMAC(i int) [6]byte { return [6]byte(sw.addrs.both[i][6:]) }

// SetNeighbourMAC names the MAC of the device on port i (a NIC: LinkTo
// names a neighbouring switch's), the destination the rewrite gives the
// frames the port sends. Until it is named, a frame leaves the port with
// the destination it came with.
func (sw *Switch) SetNeighbourMAC(i int, mac [6]byte) {
	copy(sw.addrs.both[i][:6], mac[:])
	sw.addrs.known[i] = true
}

// RewriteHeaders rewrites h, a frame's first bytes from its destination
// MAC through a whole IP header (IPv4 or IPv6, behind at most one 802.1Q
// tag), as a switch port forwarding it does (ingressPipe.forward): src
// becomes the source MAC and, when dstKnown, dst the destination; the
// TTL or hop limit drops by one and the IPv4 checksum follows. It reports
// false, leaving h as it was, when the TTL is 1 or 0, and an error when h
// holds no whole IP header. It is the golden model of the rewrite for RTL
// checks (the verify package's rewrite block).
func RewriteHeaders(h []byte, src, dst [6]byte, dstKnown bool) (bool, error) {
	if _, _, ok := ipOffset(h); !ok {
		return false, fmt.Errorf("rewrite: %d bytes hold no whole IPv4 or IPv6 header after the Ethernet header", len(h))
	}
	var macs [12]byte
	copy(macs[:6], dst[:])
	copy(macs[6:], src[:])
	var buf [packet.HeaderCap]byte // the headers, as a descriptor holds them
	n := copy(buf[:], h)
	ok := rewriteFor(&buf, n, &macs, dstKnown)
	copy(h, buf[:n])
	return ok, nil
}

// rewriteFor rewrites the n header bytes in h, whose IP header is whole,
// for the next hop whose MAC and the egress port's are macs (the first
// six bytes count only when dstKnown), and reports false, leaving h as it
// is, when its TTL ran out.
func rewriteFor(h *[packet.HeaderCap]byte, n int, macs *[12]byte, dstKnown bool) bool {
	const v4End = packet.EthernetLen + packet.IPv4MinLen
	if n >= v4End && h[12] == 0x08 && h[13] == 0x00 { // untagged IPv4, the common frame
		if !hopIPv4((*[packet.IPv4MinLen]byte)(h[packet.EthernetLen:v4End])) {
			return false
		}
	} else if off, v6, ok := ipOffset(h[:n]); !ok {
		// no whole IP header, which the callers rule out: no TTL to take from
	} else if v6 {
		ip := (*[packet.IPv6Len]byte)(h[off:])
		if ip[7] <= 1 {
			return false
		}
		ip[7]--
	} else if !hopIPv4((*[packet.IPv4MinLen]byte)(h[off:])) {
		return false
	}
	if dstKnown {
		*(*[12]byte)(h[:12]) = *macs
	} else {
		*(*[6]byte)(h[6:12]) = [6]byte(macs[6:])
	}
	return true
}

// hopIPv4 takes one from the TTL of the IPv4 header ip and updates its
// checksum, or reports false when the TTL is 1 or 0. The checksum is RFC
// 1624's equation 3, HC' = ~(~HC + ~m + m'), for the word m of TTL and
// protocol: with m' = m − 0x100, ~m + m' is 0xFEFF whatever m is, so
// HC' = ~(~HC + 0xFEFF) with one end-around carry
// (TestHopIPv4IsRFC1624Equation3 checks every checksum and TTL against
// packet.UpdateChecksum16).
func hopIPv4(ip *[packet.IPv4MinLen]byte) bool {
	ttl := ip[8]
	if ttl <= 1 {
		return false
	}
	ip[8] = ttl - 1
	s := uint32(^(uint16(ip[10])<<8 | uint16(ip[11]))) + 0xFEFF
	sum := ^uint16(s&0xFFFF + s>>16)
	ip[10], ip[11] = byte(sum>>8), byte(sum)
	return true
}
