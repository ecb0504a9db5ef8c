package packet

// UET is one UET packet over UDP (FACTS 2.6 [R21]): Ethernet (optionally
// 802.1Q tagged), IPv4 or IPv6 chosen by Eth.EtherType, UDP to port 4793,
// a PDS header chosen by its type, and for requests the SES header named by
// the PDS next-header field. UET carries no ICRC; the FCS follows the IP
// packet. Responses (ACK, ACK_CC, NACK) are parsed up to the PDS header and
// whatever follows is reported as payload.
type UET struct {
	Eth Ethernet
	IP4 IPv4 // used when Eth.EtherType is IPv4
	IP6 IPv6 // used when Eth.EtherType is IPv6
	UDP UDP

	PDSType PDSType // which of the PDS headers below is in use
	Req     PDSRequest
	Ack     PDSAck
	AckCC   PDSAckCC
	Nack    PDSNack

	SESSmall    SESSmall    // used when Req.NextHdr is SESHdrRequestSmall
	SESStandard SESStandard // used when Req.NextHdr is SESHdrRequestStd

	// Set by Decode and Build, offsets into the frame.
	PayloadOff int // first byte after the PDS (and SES) headers
	PayloadLen int // bytes up to the end of the IP packet
}

// IsIPv6 reports whether the frame carries IPv6.
func (u *UET) IsIPv6() bool { return u.Eth.EtherType == EtherTypeIPv6 }

// End is the offset just past the IP packet, where padding or the FCS begins.
func (u *UET) End() int { return u.PayloadOff + u.PayloadLen }

// pdsSESLen is the length of the PDS header of type t and, for requests,
// the SES header next names; it reports false for what UET does not parse.
func (u *UET) pdsSESLen() (int, bool) {
	switch u.PDSType {
	case PDSTypeRUDReq, PDSTypeRODReq, PDSTypeRUDCCReq, PDSTypeRODCCReq:
		n := u.Req.Len()
		switch u.Req.NextHdr {
		case SESHdrRequestSmall:
			return n + SESSmallLen, true
		case SESHdrRequestStd:
			return n + SESStandardLen, true
		}
		return 0, false
	case PDSTypeAck:
		return PDSAckLen, true
	case PDSTypeAckCC:
		return PDSAckCCLen, true
	case PDSTypeNack:
		return PDSNackLen, true
	}
	return 0, false
}

// Decode parses a UET frame from its first Ethernet byte. PDS types other
// than RUD/ROD requests (with or without CC state), ACK, ACK_CC and NACK are
// BadValue on PDS "Type"; a request whose next header is not the small or
// standard SES request is BadValue on "NextHdr".
func (u *UET) Decode(b []byte) error {
	off, end, err := decodeIPUDP(b, &u.Eth, &u.IP4, &u.IP6, &u.UDP, UETPort)
	if err != nil {
		return err
	}
	p := b[off:end]
	if len(p) < 1 {
		return truncated("PDS", "Type", 1, 0)
	}
	u.PDSType = PDSType(p[0] >> 3)
	switch u.PDSType {
	case PDSTypeRUDReq, PDSTypeRODReq, PDSTypeRUDCCReq, PDSTypeRODCCReq:
		if err := u.Req.Decode(p); err != nil {
			return err
		}
		n := u.Req.Len()
		switch u.Req.NextHdr {
		case SESHdrRequestSmall:
			err = u.SESSmall.Decode(p[n:])
		case SESHdrRequestStd:
			err = u.SESStandard.Decode(p[n:])
		default:
			return badField("PDSRequest", "NextHdr", BadValue, uint64(u.Req.NextHdr))
		}
	case PDSTypeAck:
		err = u.Ack.Decode(p)
	case PDSTypeAckCC:
		err = u.AckCC.Decode(p)
	case PDSTypeNack:
		err = u.Nack.Decode(p)
	default:
		return badField("PDS", "Type", BadValue, uint64(u.PDSType))
	}
	if err != nil {
		return err
	}
	n, _ := u.pdsSESLen()
	u.PayloadOff, u.PayloadLen = off+n, len(p)-n
	return nil
}

// Build writes a complete UET frame for payload into b and returns its
// length, FCS included. It fills in, and stores into u: UDP.Length and
// DstPort 4793, the IP length, IP protocol 17 and the IPv4 header checksum,
// and the payload offsets. The PDS header used is the one PDSType names;
// its Type field is set to PDSType. The FCS is left as zero bytes, and a
// frame shorter than 60 bytes before the FCS is zero-padded to 60.
func (u *UET) Build(b []byte, payload []byte) (int, error) {
	switch u.PDSType {
	case PDSTypeRUDReq, PDSTypeRODReq, PDSTypeRUDCCReq, PDSTypeRODCCReq:
		u.Req.Type = u.PDSType
	case PDSTypeAck:
		u.Ack.Type = u.PDSType
	case PDSTypeAckCC:
		u.AckCC.Type = u.PDSType
	}
	hl, ok := u.pdsSESLen()
	if !ok {
		if u.PDSType == PDSTypeNack || validRequestType(u.PDSType) {
			return 0, badField("PDSRequest", "NextHdr", BadValue, uint64(u.Req.NextHdr))
		}
		return 0, badField("PDS", "Type", BadValue, uint64(u.PDSType))
	}
	u.UDP.DstPort = UETPort
	off, frame, err := buildIPUDP(b, &u.Eth, &u.IP4, &u.IP6, &u.UDP, hl+len(payload))
	if err != nil {
		return 0, err
	}
	var k int
	switch u.PDSType {
	case PDSTypeAck:
		k, err = u.Ack.Encode(b[off:])
	case PDSTypeAckCC:
		k, err = u.AckCC.Encode(b[off:])
	case PDSTypeNack:
		k, err = u.Nack.Encode(b[off:])
	default:
		if k, err = u.Req.Encode(b[off:]); err == nil {
			var s int
			if u.Req.NextHdr == SESHdrRequestSmall {
				s, err = u.SESSmall.Encode(b[off+k:])
			} else {
				s, err = u.SESStandard.Encode(b[off+k:])
			}
			k += s
		}
	}
	if err != nil {
		return 0, err
	}
	off += k
	u.PayloadOff, u.PayloadLen = off, len(payload)
	off += copy(b[off:], payload)
	clear(b[off:frame])
	return frame, nil
}
