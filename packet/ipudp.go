package packet

// decodeIPUDP parses Ethernet, IPv4 or IPv6 (by EtherType) and UDP to
// port from the start of b, as RoCEv2 and UET carry them (FACTS 1.1). It
// returns the offset of the UDP payload and the end of the IP packet. The
// UDP length must equal what the IP length leaves for it.
func decodeIPUDP(b []byte, eth *Ethernet, ip4 *IPv4, ip6 *IPv6, udp *UDP, port uint16) (off, end int, err error) {
	return decodeIPUDPIn(b, len(b), eth, ip4, ip6, udp, port)
}

// decodeIPUDPIn is decodeIPUDP for a frame of frameLen bytes of which b
// holds at least the headers: length fields are checked against frameLen.
func decodeIPUDPIn(b []byte, frameLen int, eth *Ethernet, ip4 *IPv4, ip6 *IPv6, udp *UDP, port uint16) (off, end int, err error) {
	if err := eth.Decode(b); err != nil {
		return 0, 0, err
	}
	off = eth.Len()
	switch eth.EtherType {
	case EtherTypeIPv4:
		if err := ip4.decode(b[off:], frameLen-off); err != nil {
			return 0, 0, err
		}
		if ip4.Protocol != IPProtoUDP {
			return 0, 0, badField("IPv4", "Protocol", BadValue, uint64(ip4.Protocol))
		}
		end = off + int(ip4.TotalLength)
		off += ip4.Len()
	case EtherTypeIPv6:
		if err := ip6.decode(b[off:], frameLen-off); err != nil {
			return 0, 0, err
		}
		if ip6.NextHeader != IPProtoUDP {
			return 0, 0, badField("IPv6", "NextHeader", BadValue, uint64(ip6.NextHeader))
		}
		off += IPv6Len
		end = off + int(ip6.PayloadLength)
	default:
		return 0, 0, badField("Ethernet", "EtherType", BadValue, uint64(eth.EtherType))
	}
	if err := udp.decode(b[off:min(end, len(b))], end-off); err != nil {
		return 0, 0, err
	}
	if int(udp.Length) != end-off {
		return 0, 0, badField("UDP", "Length", BadLength, uint64(udp.Length))
	}
	if udp.DstPort != port {
		return 0, 0, badField("UDP", "DstPort", BadValue, uint64(udp.DstPort))
	}
	return off + UDPLen, end, nil
}

// buildIPUDP sets the UDP and IP length fields for a UDP payload of n bytes
// and IP protocol 17, encodes Ethernet, IP (computing the IPv4 header
// checksum in place) and UDP into b, and returns the offset of the UDP
// payload and the whole frame length: padded to the 60-byte minimum, plus
// the FCS. It checks that b holds the whole frame.
func buildIPUDP(b []byte, eth *Ethernet, ip4 *IPv4, ip6 *IPv6, udp *UDP, n int) (off, frame int, err error) {
	udpLen := UDPLen + n
	if udpLen > 0xFFFF {
		return 0, 0, badField("UDP", "Length", BadLength, uint64(udpLen))
	}
	udp.Length = uint16(udpLen)
	ipLen := 0
	switch eth.EtherType {
	case EtherTypeIPv4:
		ipLen = ip4.Len()
		if ipLen+udpLen > 0xFFFF {
			return 0, 0, badField("IPv4", "TotalLength", BadLength, uint64(ipLen+udpLen))
		}
		ip4.TotalLength = uint16(ipLen + udpLen)
		ip4.Protocol = IPProtoUDP
		ip4.Checksum = 0
	case EtherTypeIPv6:
		ipLen = IPv6Len
		ip6.PayloadLength = uint16(udpLen)
		ip6.NextHeader = IPProtoUDP
	default:
		return 0, 0, badField("Ethernet", "EtherType", BadValue, uint64(eth.EtherType))
	}
	frame = max(eth.Len()+ipLen+udpLen, EthernetMinFrame) + wireFCS
	if len(b) < frame {
		return 0, 0, short("frame", frame, len(b))
	}
	if off, err = eth.Encode(b); err != nil {
		return 0, 0, err
	}
	var k int
	if eth.EtherType == EtherTypeIPv6 {
		k, err = ip6.Encode(b[off:])
	} else if k, err = ip4.Encode(b[off:]); err == nil {
		ip4.Checksum = ipv4HdrChecksum(b[off : off+k])
		be.PutUint16(b[off+10:], ip4.Checksum)
	}
	if err != nil {
		return 0, 0, err
	}
	off += k
	if k, err = udp.Encode(b[off:]); err != nil {
		return 0, 0, err
	}
	return off + k, frame, nil
}
