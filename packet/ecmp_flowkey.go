package packet

import "encoding/binary"

// FlowField is a bit set naming the FlowKey fields an ECMP hash covers,
// like the hash-field selection registers of a switch ASIC.
type FlowField uint16

// The selectable fields. They are serialised in this order, each big-endian:
// source address, destination address (4 bytes each for IPv4, 16 for IPv6),
// source port, destination port (2 each), protocol (1), IPv6 flow label (3,
// low 20 bits), BTH destination QP (3, FACTS 1.2 BTH w1[23:0]), entropy (2).
// The first four in this order are the RSS input order, so a Toeplitz ECMP
// hash over FieldsRSS reproduces the RSS hash.
const (
	// FieldSrcAddr selects the source address.
	FieldSrcAddr FlowField = 1 << iota
	// FieldDstAddr selects the destination address.
	FieldDstAddr
	// FieldSrcPort selects the L4 source port; in RoCEv2 it carries the
	// flow entropy (0xC000-0xFFFF, FACTS 1.1 UDP source port row [R7]).
	FieldSrcPort
	// FieldDstPort selects the L4 destination port (RoCEv2: 4791, FACTS 1.1).
	FieldDstPort
	// FieldProtocol selects the IP protocol or IPv6 next header.
	FieldProtocol
	// FieldFlowLabel selects the 20-bit IPv6 flow label (FACTS 1.1 IPv6 row).
	FieldFlowLabel
	// FieldDestQP selects the 24-bit BTH destination QP (FACTS 1.2 BTH).
	FieldDestQP
	// FieldEntropy selects the 16-bit transport entropy value.
	FieldEntropy

	// FieldsAddrs selects the two addresses (the RSS 2-tuple).
	FieldsAddrs = FieldSrcAddr | FieldDstAddr
	// FieldsRSS selects addresses and ports (the RSS 4-tuple).
	FieldsRSS = FieldsAddrs | FieldSrcPort | FieldDstPort
	// Fields5Tuple selects addresses, ports and protocol.
	Fields5Tuple = FieldsRSS | FieldProtocol
	// fieldsAll is every defined field.
	fieldsAll = Fields5Tuple | FieldFlowLabel | FieldDestQP | FieldEntropy
)

// flowKeyMaxLen is the serialised length of an IPv6 key with every field.
const flowKeyMaxLen = 16 + 16 + 2 + 2 + 1 + 3 + 3 + 2

// FlowKey is what an ECMP or spraying decision may look at. Addresses are
// held in 16 bytes in the form net/netip's Addr.As16 gives: an IPv4 address
// is IPv4-mapped (::ffff:a.b.c.d) in bytes 12..15 and IPv4 is set.
type FlowKey struct {
	Src, Dst  [16]byte // source and destination address
	IPv4      bool     // the addresses are IPv4 (bytes 12..15 hash)
	Protocol  uint8    // IP protocol / IPv6 next header
	SrcPort   uint16   // L4 source port (RoCEv2: the entropy-carrying port, FACTS 1.1)
	DstPort   uint16   // L4 destination port (RoCEv2: 4791)
	FlowLabel uint32   // IPv6 flow label, low 20 bits used
	DestQP    uint32   // BTH destination QP, low 24 bits used
	Entropy   uint16   // transport entropy value (e.g. UET entropy)
}

// SetIPv4 stores IPv4 source and destination addresses in IPv4-mapped form
// and sets IPv4.
func (k *FlowKey) SetIPv4(src, dst [4]byte) {
	k.Src = [16]byte{10: 0xff, 11: 0xff, 12: src[0], 13: src[1], 14: src[2], 15: src[3]}
	k.Dst = [16]byte{10: 0xff, 11: 0xff, 12: dst[0], 13: dst[1], 14: dst[2], 15: dst[3]}
	k.IPv4 = true
}

// SetIPv6 stores IPv6 source and destination addresses and clears IPv4.
func (k *FlowKey) SetIPv6(src, dst [16]byte) {
	k.Src, k.Dst, k.IPv4 = src, dst, false
}

// addrs returns the address bytes that hash: 4 for IPv4, 16 for IPv6.
func (k *FlowKey) addrs() (src, dst []byte) {
	if k.IPv4 {
		return k.Src[12:], k.Dst[12:]
	}
	return k.Src[:], k.Dst[:]
}

// flowKeyLen is the longest serialisation of the fields in f (IPv6).
func flowKeyLen(f FlowField) int {
	n := 0
	for _, fl := range [...]struct {
		f FlowField
		n int
	}{{FieldSrcAddr, 16}, {FieldDstAddr, 16}, {FieldSrcPort, 2}, {FieldDstPort, 2},
		{FieldProtocol, 1}, {FieldFlowLabel, 3}, {FieldDestQP, 3}, {FieldEntropy, 2}} {
		if f&fl.f != 0 {
			n += fl.n
		}
	}
	return n
}

// serialize writes the fields of k selected by f into buf in the documented
// order and returns the number of bytes written. With swap, source and
// destination (address and port) trade places.
func (k *FlowKey) serialize(buf *[flowKeyMaxLen]byte, f FlowField, swap bool) int {
	src, dst := k.addrs()
	sport, dport := k.SrcPort, k.DstPort
	if swap {
		src, dst, sport, dport = dst, src, dport, sport
	}
	n := 0
	if f&FieldSrcAddr != 0 {
		n += copy(buf[n:], src)
	}
	if f&FieldDstAddr != 0 {
		n += copy(buf[n:], dst)
	}
	if f&FieldSrcPort != 0 {
		binary.BigEndian.PutUint16(buf[n:], sport)
		n += 2
	}
	if f&FieldDstPort != 0 {
		binary.BigEndian.PutUint16(buf[n:], dport)
		n += 2
	}
	if f&FieldProtocol != 0 {
		buf[n] = k.Protocol
		n++
	}
	if f&FieldFlowLabel != 0 {
		v := k.FlowLabel & 0xFFFFF
		buf[n], buf[n+1], buf[n+2] = byte(v>>16), byte(v>>8), byte(v)
		n += 3
	}
	if f&FieldDestQP != 0 {
		v := k.DestQP & 0xFFFFFF
		buf[n], buf[n+1], buf[n+2] = byte(v>>16), byte(v>>8), byte(v)
		n += 3
	}
	if f&FieldEntropy != 0 {
		binary.BigEndian.PutUint16(buf[n:], k.Entropy)
		n += 2
	}
	return n
}

// reversed reports whether the destination endpoint orders before the
// source, comparing the selected address bytes and then the selected ports,
// so that symmetric hashing puts the lower endpoint first.
func (k *FlowKey) reversed(f FlowField) bool {
	src, dst := k.addrs()
	if f&FieldsAddrs != 0 {
		for i := range src {
			if src[i] != dst[i] {
				return src[i] > dst[i]
			}
		}
	}
	if f&(FieldSrcPort|FieldDstPort) != 0 {
		return k.SrcPort > k.DstPort
	}
	return false
}
