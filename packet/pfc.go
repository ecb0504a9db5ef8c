package packet

// PFC frame constants. A priority flow control frame (802.1Qbb) is an
// 802.3 MAC control frame with the class-based flow control opcode:
// destination 01-80-C2-00-00-01, EtherType 0x8808, opcode 0x0101, a
// reserved byte, the class-enable vector (bit c for class c), then a
// 16-bit pause time for each class 0 to 7, padded to the 60-byte minimum
// frame (secdev/scapy:scapy/contrib/mac_control.py, which follows
// Wireshark's MAC control dissector). A pause time counts quanta of 512
// bit times; 0 resumes the class (FACTS 2.7 [R52]).
const (
	// EtherTypeMACControl is the 802.3 MAC control EtherType.
	EtherTypeMACControl uint16 = 0x8808
	// PFCOpcode is the class-based flow control opcode.
	PFCOpcode uint16 = 0x0101
	// PFCLen is a PFC frame's header: Ethernet 14, opcode 2, reserved 1,
	// class-enable vector 1, eight pause times 16.
	PFCLen = EthernetLen + 20
)

// PFCDestination is the MAC control multicast address every PFC frame is
// sent to.
var PFCDestination = [6]byte{0x01, 0x80, 0xC2, 0x00, 0x00, 0x01}

// PFC is a priority flow control frame's header.
type PFC struct {
	Src      [6]byte   // the sending port's MAC
	Reserved uint8     // the byte before the class-enable vector, 0 when sent
	Classes  uint8     // class-enable vector: bit c says Quanta[c] applies
	Quanta   [8]uint16 // pause time per class, in quanta of 512 bit times
}

var pfcLayout = []span{{0, "Dst"}, {6, "Src"}, {12, "EtherType"}, {14, "Opcode"}, {16, "Reserved"},
	{17, "Classes"}, {18, "Quanta"}}

// Encode writes the header into b and returns PFCLen.
func (h *PFC) Encode(b []byte) (int, error) {
	if len(b) < PFCLen {
		return 0, short("PFC", PFCLen, len(b))
	}
	copy(b[0:6], PFCDestination[:])
	copy(b[6:12], h.Src[:])
	be.PutUint16(b[12:], EtherTypeMACControl)
	be.PutUint16(b[14:], PFCOpcode)
	b[16], b[17] = h.Reserved, h.Classes
	for c, q := range h.Quanta {
		be.PutUint16(b[18+2*c:], q)
	}
	return PFCLen, nil
}

// Decode reads the header from the start of b. A destination other than
// PFCDestination, another EtherType (an 802.1Q tag included) or another
// MAC control opcode is BadValue.
func (h *PFC) Decode(b []byte) error {
	if len(b) < PFCLen {
		return cut("PFC", pfcLayout, PFCLen, len(b))
	}
	if [6]byte(b[0:6]) != PFCDestination {
		return badField("PFC", "Dst", BadValue, uint64(be.Uint16(b[0:]))<<32|uint64(be.Uint32(b[2:])))
	}
	if et := be.Uint16(b[12:]); et != EtherTypeMACControl {
		return badField("PFC", "EtherType", BadValue, uint64(et))
	}
	if op := be.Uint16(b[14:]); op != PFCOpcode {
		return badField("PFC", "Opcode", BadValue, uint64(op))
	}
	copy(h.Src[:], b[6:12])
	h.Reserved, h.Classes = b[16], b[17]
	for c := range h.Quanta {
		h.Quanta[c] = be.Uint16(b[18+2*c:])
	}
	return nil
}
