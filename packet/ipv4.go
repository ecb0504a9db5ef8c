package packet

// IPv4 header sizes (FACTS 1.1 [R77]: struct iphdr is 20 bytes without options).
const (
	// IPv4MinLen is the header without options (IHL 5).
	IPv4MinLen = 20
	// IPv4MaxLen is the header with 40 bytes of options (IHL 15).
	IPv4MaxLen = 60
	// IPProtoUDP is the IPv4 protocol / IPv6 next-header number of UDP.
	IPProtoUDP = 17
)

// IPv4 is an IPv4 header (RFC 791 layout; FACTS 1.1 [R77]). Every bit of the
// header has a field, so encode(decode(b)) reproduces b.
//
// Length policy: Decode is given the IP packet from its first header byte;
// TotalLength may not claim more bytes than b holds, nor fewer than the
// header. Decode verifies the header checksum (RFC 1071).
type IPv4 struct {
	IHL         uint8  // header length in 32-bit words, 5..15
	TOS         uint8  // DSCP (6b) and ECN (2b)
	TotalLength uint16 // header plus payload, bytes
	ID          uint16
	Flags       uint8  // 3 bits: reserved, DF, MF
	FragOffset  uint16 // 13 bits, in 8-byte units
	TTL         uint8
	Protocol    uint8
	Checksum    uint16 // header checksum as carried; see ComputeChecksum
	Src, Dst    [4]byte
	Options     [40]byte // the first (IHL-5)*4 bytes are on the wire
}

var ipv4Layout = []span{{0, "Version"}, {1, "TOS"}, {2, "TotalLength"}, {4, "ID"}, {6, "Flags"},
	{8, "TTL"}, {9, "Protocol"}, {10, "Checksum"}, {12, "Src"}, {16, "Dst"}, {20, "Options"}}

// DSCP is the differentiated services code point, the top 6 bits of TOS.
func (h *IPv4) DSCP() uint8 { return h.TOS >> 2 }

// ECN is the explicit congestion notification codepoint, the low 2 bits of TOS.
func (h *IPv4) ECN() uint8 { return h.TOS & 3 }

// Len is the encoded header length, IHL*4.
func (h *IPv4) Len() int { return int(h.IHL) * 4 }

// ComputeChecksum sets Checksum to the RFC 1071 header checksum of the
// other fields, as a sender does before Encode.
func (h *IPv4) ComputeChecksum() error {
	var buf [IPv4MaxLen]byte
	_, err := h.EncodeChecksummed(buf[:])
	return err
}

// EncodeChecksummed writes the header into b with its header checksum, as
// ComputeChecksum then Encode do, computing the checksum over the bytes
// written instead of over a header encoded twice. It sets Checksum.
func (h *IPv4) EncodeChecksummed(b []byte) (int, error) {
	h.Checksum = 0
	n, err := h.Encode(b)
	if err != nil {
		return 0, err
	}
	h.Checksum = ipv4HdrChecksum(b[:n])
	be.PutUint16(b[10:], h.Checksum)
	return n, nil
}

// Encode writes the header, with Checksum as given, into b.
func (h *IPv4) Encode(b []byte) (int, error) {
	if h.IHL < 5 || h.IHL > 15 {
		return 0, badField("IPv4", "IHL", BadLength, uint64(h.IHL))
	}
	n := h.Len()
	if len(b) < n {
		return 0, short("IPv4", n, len(b))
	}
	if int(h.TotalLength) < n {
		return 0, badField("IPv4", "TotalLength", BadLength, uint64(h.TotalLength))
	}
	if err := tooWide("IPv4", "Flags", uint64(h.Flags), 3); err != nil {
		return 0, err
	}
	if err := tooWide("IPv4", "FragOffset", uint64(h.FragOffset), 13); err != nil {
		return 0, err
	}
	b[0] = 4<<4 | h.IHL
	b[1] = h.TOS
	be.PutUint16(b[2:], h.TotalLength)
	be.PutUint16(b[4:], h.ID)
	be.PutUint16(b[6:], uint16(h.Flags)<<13|h.FragOffset)
	b[8] = h.TTL
	b[9] = h.Protocol
	be.PutUint16(b[10:], h.Checksum)
	copy(b[12:16], h.Src[:])
	copy(b[16:20], h.Dst[:])
	if n > IPv4MinLen {
		copy(b[IPv4MinLen:n], h.Options[:n-IPv4MinLen])
	}
	return n, nil
}

// Decode reads the header from the start of b, the IP packet.
func (h *IPv4) Decode(b []byte) error { return h.decode(b, len(b)) }

// decode reads the header from b for an IP packet of avail bytes, which b
// may hold only in part (a header-only buffer whose payload is elided).
func (h *IPv4) decode(b []byte, avail int) error {
	if len(b) < IPv4MinLen {
		return cut("IPv4", ipv4Layout, IPv4MinLen, len(b))
	}
	if v := b[0] >> 4; v != 4 {
		return badField("IPv4", "Version", BadVersion, uint64(v))
	}
	ihl := b[0] & 0x0F
	if ihl < 5 {
		return badField("IPv4", "IHL", BadLength, uint64(ihl))
	}
	n := int(ihl) * 4
	if len(b) < n {
		return cut("IPv4", ipv4Layout, n, len(b))
	}
	tl := be.Uint16(b[2:])
	if int(tl) < n || int(tl) > avail {
		return badField("IPv4", "TotalLength", BadLength, uint64(tl))
	}
	if s := rfc1071Sum(b[:n], 0); s != 0xFFFF {
		return badField("IPv4", "Checksum", BadChecksum, uint64(be.Uint16(b[10:])))
	}
	ff := be.Uint16(b[6:])
	// one store of the whole header, the options zero unless present
	*h = IPv4{IHL: ihl, TOS: b[1], TotalLength: tl, ID: be.Uint16(b[4:]), Flags: uint8(ff >> 13),
		FragOffset: ff & 0x1FFF, TTL: b[8], Protocol: b[9], Checksum: be.Uint16(b[10:]),
		Src: [4]byte(b[12:16]), Dst: [4]byte(b[16:20])}
	if n > IPv4MinLen {
		copy(h.Options[:], b[IPv4MinLen:n])
	}
	return nil
}

// rfc1071Sum adds b as big-endian 16-bit words (an odd last byte is padded
// with zero) to sum in one's-complement arithmetic and returns the folded
// 16-bit sum (RFC 1071 §4.1). A header whose checksum is right sums to 0xFFFF.
func rfc1071Sum(b []byte, sum uint32) uint16 {
	acc := uint64(sum)
	if len(b) == IPv4MinLen {
		// an IPv4 header without options, the usual case, in five words
		_ = b[19]
		acc += uint64(be.Uint32(b)) + uint64(be.Uint32(b[4:])) + uint64(be.Uint32(b[8:])) +
			uint64(be.Uint32(b[12:])) + uint64(be.Uint32(b[16:]))
		b = nil
	}
	// Four bytes at a time: a big-endian 32-bit word is its high 16-bit
	// word times 65536, which is 1 modulo 65535, plus its low one, so the
	// folded sum is the same (RFC 1071 §2(B)); the 64-bit accumulator
	// cannot overflow for any slice that fits in memory.
	for len(b) >= 4 {
		acc += uint64(be.Uint32(b))
		b = b[4:]
	}
	for len(b) >= 2 {
		acc += uint64(b[0])<<8 | uint64(b[1])
		b = b[2:]
	}
	if len(b) == 1 {
		acc += uint64(b[0]) << 8
	}
	for acc>>16 != 0 {
		acc = acc&0xFFFF + acc>>16
	}
	return uint16(acc)
}

// ipv4HdrChecksum returns the checksum to place in an IPv4 header whose
// checksum field is zero: the complement of the one's-complement sum.
func ipv4HdrChecksum(hdr []byte) uint16 {
	return ^rfc1071Sum(hdr, 0)
}
