package packet

// Trailer and framing sizes on the wire (FACTS 1.1 [R51][R76], 1.2 [R81]).
const (
	wireICRC     = 4  // invariant CRC of IB and RoCE packets
	wireFCS      = 4  // Ethernet frame check sequence
	wireVCRC     = 2  // native IB per-link CRC
	wirePreamble = 8  // preamble + SFD
	wireIPG      = 12 // minimum inter-packet gap
)

// RoCEv2 is one RoCEv2 frame: Ethernet (optionally 802.1Q tagged), IPv4 or
// IPv6 chosen by Eth.EtherType, UDP to port 4791, the BTH and its extension
// headers, payload, pad, ICRC, then the FCS (FACTS 1.1, 1.2, 1.3 [R2]).
//
// Decode fills every header and the offsets of the payload and ICRC;
// Build does the reverse. Neither allocates.
type RoCEv2 struct {
	Eth Ethernet
	IP4 IPv4 // used when Eth.EtherType is IPv4
	IP6 IPv6 // used when Eth.EtherType is IPv6
	UDP UDP
	Transport

	// Set by Decode and Build, offsets into the frame.
	PayloadOff int // first payload byte
	PayloadLen int // payload bytes, without pad
	ICRCOff    int // first ICRC byte; the IP packet ends 4 bytes later
}

// IsIPv6 reports whether the frame carries IPv6.
func (f *RoCEv2) IsIPv6() bool { return f.Eth.EtherType == EtherTypeIPv6 }

// End is the offset just past the ICRC, where the Ethernet padding or FCS begins.
func (f *RoCEv2) End() int { return f.ICRCOff + wireICRC }

// Decode parses a RoCEv2 frame from its first Ethernet byte. The IP and UDP
// length fields bound the packet; bytes after the ICRC (Ethernet padding,
// FCS) are not examined. Non-IP EtherTypes, non-UDP protocols, a UDP port
// other than 4791, a UDP length that disagrees with the IP length or leaves
// a UDP payload that is not a whole number of 4-byte words, and a PadCnt
// larger than the payload are reported as *FieldError.
func (f *RoCEv2) Decode(b []byte) error {
	off, ipEnd, err := decodeIPUDP(b, &f.Eth, &f.IP4, &f.IP6, &f.UDP, RoCEv2Port)
	if err != nil {
		return err
	}
	if ipEnd-off < BTHLen+wireICRC || (ipEnd-off)%4 != 0 {
		return badField("UDP", "Length", BadLength, uint64(f.UDP.Length))
	}
	icrc := ipEnd - wireICRC
	if err := f.Transport.Decode(b[off:icrc]); err != nil {
		return err
	}
	off += f.Transport.Len()
	pay := icrc - off - int(f.BTH.PadCnt)
	if pay < 0 {
		return badField("BTH", "PadCnt", BadLength, uint64(f.BTH.PadCnt))
	}
	f.PayloadOff, f.PayloadLen, f.ICRCOff = off, pay, icrc
	return nil
}

// Build writes a complete frame for payload into b and returns its length,
// FCS included. It fills in, and stores into f: BTH.PadCnt, UDP.Length and
// DstPort 4791, the IP length, IP protocol 17 and the IPv4 header checksum,
// and the payload and ICRC offsets. Pad bytes are zero; the ICRC and FCS
// are left as zero bytes for the checksum code to fill, and a
// frame shorter than 60 bytes before the FCS is zero-padded to 60.
func (f *RoCEv2) Build(b []byte, payload []byte) (int, error) {
	pad := -len(payload) & 3
	f.BTH.PadCnt = uint8(pad)
	f.UDP.DstPort = RoCEv2Port
	off, frame, err := buildIPUDP(b, &f.Eth, &f.IP4, &f.IP6, &f.UDP, f.Transport.Len()+len(payload)+pad+wireICRC)
	if err != nil {
		return 0, err
	}
	k, err := f.Transport.Encode(b[off:])
	if err != nil {
		return 0, err
	}
	off += k
	f.PayloadOff, f.PayloadLen = off, len(payload)
	off += copy(b[off:], payload)
	f.ICRCOff = off + pad
	clear(b[off:frame])
	return frame, nil
}

// BuildRoCEv2Write builds a RoCEv2 RDMA WRITE frame (RC or UC, any of
// FIRST, MIDDLE, LAST, ONLY and their _IMM forms) into b; see RoCEv2.Build.
// Other opcodes are BadValue on BTH.OpCode.
func BuildRoCEv2Write(b []byte, f *RoCEv2, payload []byte) (int, error) {
	switch f.BTH.OpCode {
	case RCWriteFirst, RCWriteMiddle, RCWriteLast, RCWriteLastImm, RCWriteOnly, RCWriteOnlyImm,
		UCWriteFirst, UCWriteMiddle, UCWriteLast, UCWriteLastImm, UCWriteOnly, UCWriteOnlyImm:
		return f.Build(b, payload)
	}
	return 0, badField("BTH", "OpCode", BadValue, uint64(f.BTH.OpCode))
}
