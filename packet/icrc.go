package packet

import (
	"encoding/binary"
	"hash/crc32"
)

// ICRC sizes and seed (FACTS 1.3 [R2][R3]).
const (
	// ICRCLen is the length of the invariant CRC that ends every IB and
	// RoCE packet (FACTS 1.2 extended headers, ICRC row).
	ICRCLen = 4
	// ICRCSeed is the CRC-32 register (Linux crc32_le convention, no
	// inversion) after the 8 bytes of 0xFF that stand in for the masked IB
	// LRH have been absorbed from the usual 0xFFFFFFFF start; Linux rxe
	// starts its ICRC from it (FACTS 1.3 [R3]).
	ICRCSeed uint32 = 0xDEBB20E3

	roceUDPLen = 8  // FACTS 1.1 UDP header row [R77][R78]
	roceBTHLen = 12 // FACTS 1.2 BTH [R1][R2]
	ipv6HdrLen = 40 // FACTS 1.1 IPv6 header row [R78]
	ipProtoUDP = 17
	// icrcMaxMasked is the longest masked prefix: IPv4 with IHL 15 (60
	// bytes), UDP and BTH.
	icrcMaxMasked = 60 + roceUDPLen + roceBTHLen
)

// roceICRCHeader validates the IP/UDP/BTH headers at the start of pkt and
// returns the IP version and the length of the prefix that carries masked
// fields (IP header, UDP, BTH).
func roceICRCHeader(pkt []byte) (version byte, n int, err error) {
	if len(pkt) < 1 {
		return 0, 0, truncated("IP", "Version", 1, 0)
	}
	var ipLen int
	switch v := pkt[0] >> 4; v {
	case 4:
		if ipLen, err = ipv4HeaderLen(pkt); err != nil {
			return 0, 0, err
		}
		if pkt[9] != ipProtoUDP {
			return 0, 0, badField("IPv4", "Protocol", BadValue, uint64(pkt[9]))
		}
	case 6:
		if len(pkt) < ipv6HdrLen {
			return 0, 0, truncated("IPv6", "header", ipv6HdrLen, len(pkt))
		}
		if pkt[6] != ipProtoUDP {
			return 0, 0, badField("IPv6", "NextHeader", BadValue, uint64(pkt[6]))
		}
		ipLen = ipv6HdrLen
	default:
		return 0, 0, badField("IP", "Version", BadVersion, uint64(v))
	}
	if len(pkt) < ipLen+roceUDPLen {
		return 0, 0, truncated("UDP", "header", ipLen+roceUDPLen, len(pkt))
	}
	n = ipLen + roceUDPLen + roceBTHLen
	if len(pkt) < n {
		return 0, 0, truncated("BTH", "header", n, len(pkt))
	}
	return pkt[0] >> 4, n, nil
}

// RoCEv2ICRC returns the ICRC of a RoCEv2 packet (FACTS 1.3 [R2][R3]). pkt
// runs from the first byte of the IPv4 or IPv6 header to the last byte of the
// payload (pad included), without the ICRC itself; the IP version comes from
// the first nibble and the UDP header follows the IPv4 header at IHL*4.
//
// The CRC is CRC-32 (IEEE) over 8 bytes of 0xFF standing in for the LRH,
// then the packet with these fields read as all ones: IPv4 TOS, TTL and
// header checksum; IPv6 traffic class, flow label and hop limit; the UDP
// checksum; the BTH byte holding FECN, BECN and the 6 reserved bits. IPv4
// options, when present, are covered unmasked. The caller's buffer is not
// modified and nothing is allocated.
//
// It returns a *FieldError for a buffer too short for IP, UDP and BTH, an IP
// version other than 4 or 6, a bad IHL, or a protocol/next header other than
// UDP (IPv6 extension headers are not supported).
func RoCEv2ICRC(pkt []byte) (uint32, error) {
	version, n, err := roceICRCHeader(pkt)
	if err != nil {
		return 0, err
	}
	var hdr [icrcMaxMasked]byte
	copy(hdr[:], pkt[:n])
	ipLen := n - roceUDPLen - roceBTHLen
	if version == 4 {
		hdr[1] = 0xFF                 // TOS: DSCP and ECN
		hdr[8] = 0xFF                 // TTL
		hdr[10], hdr[11] = 0xFF, 0xFF // header checksum
	} else {
		hdr[0] |= 0x0F                            // traffic class, high nibble
		hdr[1], hdr[2], hdr[3] = 0xFF, 0xFF, 0xFF // traffic class low nibble, flow label
		hdr[7] = 0xFF                             // hop limit
	}
	hdr[ipLen+6], hdr[ipLen+7] = 0xFF, 0xFF // UDP checksum
	hdr[ipLen+roceUDPLen+4] = 0xFF          // BTH FECN, BECN, resv6
	reg := ieeeShort.register(ICRCSeed, hdr[:n])
	if n == len(pkt) {
		return ^reg, nil // crc32.Update of nothing, without its dispatch
	}
	return crc32.Update(^reg, crc32.IEEETable, pkt[n:]), nil
}

// roceDatagram trims pkt (a whole RoCEv2 datagram from the IP header through
// the ICRC, possibly followed by Ethernet padding) to the length its IP header
// states, and checks that the length leaves room for UDP, BTH and ICRC.
func roceDatagram(pkt []byte) ([]byte, error) {
	version, n, err := roceICRCHeader(pkt)
	if err != nil {
		return nil, err
	}
	var total int
	if version == 4 {
		total = int(binary.BigEndian.Uint16(pkt[2:]))
		if total < n+ICRCLen {
			return nil, badField("IPv4", "TotalLength", BadLength, uint64(total))
		}
	} else {
		pl := int(binary.BigEndian.Uint16(pkt[4:]))
		total = ipv6HdrLen + pl
		if total < n+ICRCLen {
			return nil, badField("IPv6", "PayloadLength", BadLength, uint64(pl))
		}
	}
	if len(pkt) < total {
		return nil, truncated("ICRC", "datagram", total, len(pkt))
	}
	return pkt[:total], nil
}

// PutRoCEv2ICRC computes the ICRC of a RoCEv2 datagram and writes it into its
// last 4 bytes, least-significant byte first (FACTS 1.3 [R2]). pkt starts at
// the IP header; its length is taken from the IPv4 Total Length or the IPv6
// Payload Length, so bytes past it (Ethernet padding) are left alone.
func PutRoCEv2ICRC(pkt []byte) error {
	d, err := roceDatagram(pkt)
	if err != nil {
		return err
	}
	end := len(d) - ICRCLen
	c, err := RoCEv2ICRC(d[:end])
	if err != nil {
		return err
	}
	binary.LittleEndian.PutUint32(d[end:], c)
	return nil
}

// CheckRoCEv2ICRC verifies the ICRC at the end of a RoCEv2 datagram (framed
// as for PutRoCEv2ICRC). On a mismatch it returns a *FieldError with Problem
// BadChecksum and, as Value, the ICRC found on the wire read
// least-significant byte first.
func CheckRoCEv2ICRC(pkt []byte) error {
	d, err := roceDatagram(pkt)
	if err != nil {
		return err
	}
	end := len(d) - ICRCLen
	c, err := RoCEv2ICRC(d[:end])
	if err != nil {
		return err
	}
	if got := binary.LittleEndian.Uint32(d[end:]); got != c {
		return badField("BTH", "ICRC", BadChecksum, uint64(got))
	}
	return nil
}
