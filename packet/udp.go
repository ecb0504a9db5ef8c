package packet

// UDP constants (FACTS 1.1 [R77][R78]; ports FACTS 1.1 [R1][R2], 2.6 [R21]).
const (
	// UDPLen is the UDP header: four 16-bit fields.
	UDPLen = 8
	// RoCEv2Port is the RoCEv2 UDP destination port.
	RoCEv2Port uint16 = 4791
	// UETPort is the UET UDP destination port (UET_UDP_PORT_NUM).
	UETPort uint16 = 4793
)

// UDP is the UDP header (RFC 768; FACTS 1.1 [R78]).
//
// Length policy: Decode is given the datagram from its first header byte;
// Length may not be below 8 nor claim more bytes than b holds.
type UDP struct {
	SrcPort, DstPort uint16
	Length           uint16 // header plus payload, bytes
	Checksum         uint16
}

var udpLayout = []span{{0, "SrcPort"}, {2, "DstPort"}, {4, "Length"}, {6, "Checksum"}}

// Encode writes the header into b.
func (h *UDP) Encode(b []byte) (int, error) {
	if len(b) < UDPLen {
		return 0, short("UDP", UDPLen, len(b))
	}
	if h.Length < UDPLen {
		return 0, badField("UDP", "Length", BadLength, uint64(h.Length))
	}
	be.PutUint16(b[0:], h.SrcPort)
	be.PutUint16(b[2:], h.DstPort)
	be.PutUint16(b[4:], h.Length)
	be.PutUint16(b[6:], h.Checksum)
	return UDPLen, nil
}

// Decode reads the header from the start of b.
func (h *UDP) Decode(b []byte) error { return h.decode(b, len(b)) }

// decode reads the header from b for a datagram of avail bytes, which b may
// hold only in part.
func (h *UDP) decode(b []byte, avail int) error {
	if len(b) < UDPLen {
		return cut("UDP", udpLayout, UDPLen, len(b))
	}
	l := be.Uint16(b[4:])
	if l < UDPLen || int(l) > avail {
		return badField("UDP", "Length", BadLength, uint64(l))
	}
	h.SrcPort = be.Uint16(b[0:])
	h.DstPort = be.Uint16(b[2:])
	h.Length = l
	h.Checksum = be.Uint16(b[6:])
	return nil
}
