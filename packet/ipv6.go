package packet

// IPv6Len is the fixed IPv6 header (RFC 8200 §3; FACTS 1.1 [R78]).
const IPv6Len = 40

// IPv6 is the fixed IPv6 header (FACTS 1.1 [R78]). Extension headers are
// not parsed: NextHeader names whatever follows.
//
// Length policy: Decode is given the packet from the first header byte;
// PayloadLength may not claim more bytes than follow the header in b.
type IPv6 struct {
	TrafficClass  uint8  // DSCP (6b) and ECN (2b)
	FlowLabel     uint32 // 20 bits
	PayloadLength uint16 // bytes after this header
	NextHeader    uint8
	HopLimit      uint8
	Src, Dst      [16]byte
}

var ipv6Layout = []span{{0, "Version"}, {4, "PayloadLength"}, {6, "NextHeader"}, {7, "HopLimit"},
	{8, "Src"}, {24, "Dst"}}

// Encode writes the header into b.
func (h *IPv6) Encode(b []byte) (int, error) {
	if len(b) < IPv6Len {
		return 0, short("IPv6", IPv6Len, len(b))
	}
	if err := tooWide("IPv6", "FlowLabel", uint64(h.FlowLabel), 20); err != nil {
		return 0, err
	}
	putV6Layout(b, h.TrafficClass, h.FlowLabel, h.PayloadLength, h.NextHeader, h.HopLimit, &h.Src, &h.Dst)
	return IPv6Len, nil
}

// Decode reads the header from the start of b.
func (h *IPv6) Decode(b []byte) error { return h.decode(b, len(b)) }

// decode reads the header from b for an IP packet of avail bytes, which b
// may hold only in part.
func (h *IPv6) decode(b []byte, avail int) error {
	if len(b) < IPv6Len {
		return cut("IPv6", ipv6Layout, IPv6Len, len(b))
	}
	w := be.Uint32(b)
	if v := w >> 28; v != 6 {
		return badField("IPv6", "Version", BadVersion, uint64(v))
	}
	pl := be.Uint16(b[4:])
	if int(pl) > avail-IPv6Len {
		return badField("IPv6", "PayloadLength", BadLength, uint64(pl))
	}
	h.TrafficClass = uint8(w >> 20)
	h.FlowLabel = w & 0xFFFFF
	h.PayloadLength = pl
	h.NextHeader = b[6]
	h.HopLimit = b[7]
	copy(h.Src[:], b[8:24])
	copy(h.Dst[:], b[24:40])
	return nil
}

// putV6Layout writes the 40-byte layout shared by IPv6 and the IB GRH:
// version 6, class 8b, flow label 20b, length 16b, next header, hop limit,
// two 128-bit addresses (FACTS 1.1 [R78][R2]).
func putV6Layout(b []byte, class uint8, flow uint32, length uint16, next, hops uint8, src, dst *[16]byte) {
	_ = b[39]
	be.PutUint32(b, 6<<28|uint32(class)<<20|flow)
	be.PutUint16(b[4:], length)
	b[6] = next
	b[7] = hops
	copy(b[8:24], src[:])
	copy(b[24:40], dst[:])
}
