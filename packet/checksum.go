package packet

import "encoding/binary"

// ipv4MinHeader is the length of an IPv4 header without options (FACTS 1.1,
// IPv4 header row [R77]).
const ipv4MinHeader = 20

// ChecksumAdd adds b, taken as big-endian 16-bit words (an odd final byte is
// padded with a zero byte), to the running one's complement sum and returns
// the new sum, not yet folded. It is the building block of the Internet
// checksum (RFC 1071) and lets callers add a pseudo-header and a body
// separately. Each call starts at a word boundary of its own slice.
func ChecksumAdd(sum uint32, b []byte) uint32 {
	s := uint64(sum)
	for len(b) >= 8 {
		s += uint64(binary.BigEndian.Uint32(b)) + uint64(binary.BigEndian.Uint32(b[4:]))
		b = b[8:]
	}
	for len(b) >= 2 {
		s += uint64(binary.BigEndian.Uint16(b))
		b = b[2:]
	}
	if len(b) == 1 {
		s += uint64(b[0]) << 8
	}
	// Fold 64 -> 32 bits keeping the end-around carry.
	for s>>32 != 0 {
		s = s&0xFFFFFFFF + s>>32
	}
	return uint32(s)
}

// ChecksumFold folds a running sum from ChecksumAdd to 16 bits with
// end-around carry and returns its one's complement: the checksum field value.
func ChecksumFold(sum uint32) uint16 {
	for sum>>16 != 0 {
		sum = sum&0xFFFF + sum>>16
	}
	return ^uint16(sum)
}

// InternetChecksum returns the RFC 1071 Internet checksum of b: the one's
// complement of the one's complement sum of its 16-bit big-endian words.
// Computed over a header whose checksum field holds the right value, it
// returns 0.
func InternetChecksum(b []byte) uint16 { return ChecksumFold(ChecksumAdd(0, b)) }

// UpdateChecksum16 returns the checksum hc after one 16-bit word it covers
// changed from m to m2, by RFC 1624 equation 3: HC' = ~(~HC + ~m + m').
// Unlike equation 2 it never yields 0xFFFF where a full recomputation gives
// 0x0000.
func UpdateChecksum16(hc, m, m2 uint16) uint16 {
	s := uint32(^hc) + uint32(^m) + uint32(m2)
	for s>>16 != 0 {
		s = s&0xFFFF + s>>16
	}
	return ^uint16(s)
}

// ipv4HeaderLen validates the version and IHL of the IPv4 header at the
// start of b and returns the header length in bytes.
func ipv4HeaderLen(b []byte) (int, error) {
	if len(b) < ipv4MinHeader {
		return 0, truncated("IPv4", "header", ipv4MinHeader, len(b))
	}
	if v := b[0] >> 4; v != 4 {
		return 0, badField("IPv4", "Version", BadVersion, uint64(v))
	}
	n := int(b[0]&0x0F) * 4
	if n < ipv4MinHeader {
		return 0, badField("IPv4", "IHL", BadLength, uint64(b[0]&0x0F))
	}
	if len(b) < n {
		return 0, truncated("IPv4", "options", n, len(b))
	}
	return n, nil
}

// IPv4HeaderChecksum returns the header checksum the IPv4 header at the start
// of b should carry: the RFC 1071 checksum over IHL*4 bytes with the checksum
// field (bytes 10-11) taken as zero. b may extend past the header. It returns
// a *FieldError for a short buffer, a version other than 4 or an IHL below 5.
func IPv4HeaderChecksum(b []byte) (uint16, error) {
	n, err := ipv4HeaderLen(b)
	if err != nil {
		return 0, err
	}
	s := ChecksumAdd(0, b[:10])
	s = ChecksumAdd(s, b[12:n])
	return ChecksumFold(s), nil
}

// PutIPv4HeaderChecksum computes the header checksum of the IPv4 header at
// the start of b and writes it into bytes 10-11.
func PutIPv4HeaderChecksum(b []byte) error {
	c, err := IPv4HeaderChecksum(b)
	if err != nil {
		return err
	}
	binary.BigEndian.PutUint16(b[10:], c)
	return nil
}

// CheckIPv4HeaderChecksum verifies the header checksum of the IPv4 header at
// the start of b. On a mismatch it returns a *FieldError with Problem
// BadChecksum and the checksum found in the header as Value.
func CheckIPv4HeaderChecksum(b []byte) error {
	c, err := IPv4HeaderChecksum(b)
	if err != nil {
		return err
	}
	if got := binary.BigEndian.Uint16(b[10:]); got != c {
		return badField("IPv4", "HeaderChecksum", BadChecksum, uint64(got))
	}
	return nil
}

// DecrementIPv4TTL decrements the TTL of the IPv4 header at the start of b in
// place and updates its header checksum incrementally (RFC 1624 equation 3),
// as a router does. The checksum is adjusted, not recomputed, so a header
// that arrived with a wrong checksum keeps a wrong one. A TTL of 0 cannot be
// decremented and is reported as BadValue.
func DecrementIPv4TTL(b []byte) error {
	if _, err := ipv4HeaderLen(b); err != nil {
		return err
	}
	if b[8] == 0 {
		return badField("IPv4", "TTL", BadValue, 0)
	}
	old := binary.BigEndian.Uint16(b[8:]) // TTL and Protocol share word 4
	b[8]--
	hc := binary.BigEndian.Uint16(b[10:])
	binary.BigEndian.PutUint16(b[10:], UpdateChecksum16(hc, old, binary.BigEndian.Uint16(b[8:])))
	return nil
}
