package packet

// Ethernet and 802.1Q header sizes (FACTS 1.1 [R76]: ETH_HLEN 14, VLAN_HLEN 4).
const (
	// EthernetLen is the untagged Ethernet II header: DA 6, SA 6, EtherType 2.
	EthernetLen = 14
	// VLANTagLen is one 802.1Q tag: TPID 2 + TCI 2.
	VLANTagLen = 4
	// EthernetVLANLen is an Ethernet header carrying one 802.1Q tag (VLAN_ETH_HLEN 18).
	EthernetVLANLen = EthernetLen + VLANTagLen
	// EthernetMinFrame is the shortest frame without FCS (ETH_ZLEN 60, FACTS 1.1 [R76]).
	EthernetMinFrame = 60
)

// EtherTypes this package dispatches on.
const (
	// EtherTypeIPv4 is IPv4.
	EtherTypeIPv4 uint16 = 0x0800
	// EtherTypeIPv6 is IPv6.
	EtherTypeIPv6 uint16 = 0x86DD
	// EtherTypeVLAN is the 802.1Q tag protocol identifier.
	EtherTypeVLAN uint16 = 0x8100
	// EtherTypeRoCEv1 carries an IB GRH directly over Ethernet (FACTS 1.1 [R2]).
	EtherTypeRoCEv1 uint16 = 0x8915
)

// VLANTag is the 802.1Q tag control information: priority code point 3b,
// drop eligible indicator 1b, VLAN identifier 12b.
type VLANTag struct {
	PCP uint8  // 802.1p priority, 0..7
	DEI bool   // drop eligible
	VID uint16 // VLAN identifier, 0..4095
}

// Ethernet is an Ethernet II header with at most one 802.1Q tag
// (FACTS 1.1 [R76]). Double tagging is not unwrapped: an inner 0x8100 is
// reported as the EtherType of the tagged frame.
type Ethernet struct {
	Dst, Src  [6]byte
	Tagged    bool    // an 802.1Q tag follows the source address
	VLAN      VLANTag // meaningful when Tagged
	EtherType uint16  // the protocol after the (optional) tag
}

var ethLayout = []span{{0, "Dst"}, {6, "Src"}, {12, "EtherType"}, {14, "TCI"}, {16, "EtherType"}}

// Len is the encoded length: 14, or 18 with a tag.
func (h *Ethernet) Len() int {
	if h.Tagged {
		return EthernetVLANLen
	}
	return EthernetLen
}

// Encode writes the header into b and returns its length. An untagged header
// whose EtherType is 0x8100 is rejected because it would decode as tagged.
func (h *Ethernet) Encode(b []byte) (int, error) {
	n := h.Len()
	if len(b) < n {
		return 0, short("Ethernet", n, len(b))
	}
	copy(b[0:6], h.Dst[:])
	copy(b[6:12], h.Src[:])
	if !h.Tagged {
		if h.EtherType == EtherTypeVLAN {
			return 0, badField("Ethernet", "EtherType", BadValue, uint64(h.EtherType))
		}
		be.PutUint16(b[12:], h.EtherType)
		return n, nil
	}
	if err := tooWide("Ethernet", "PCP", uint64(h.VLAN.PCP), 3); err != nil {
		return 0, err
	}
	if err := tooWide("Ethernet", "VID", uint64(h.VLAN.VID), 12); err != nil {
		return 0, err
	}
	be.PutUint16(b[12:], EtherTypeVLAN)
	be.PutUint16(b[14:], uint16(h.VLAN.PCP)<<13|uint16(b2u(h.VLAN.DEI))<<12|h.VLAN.VID)
	be.PutUint16(b[16:], h.EtherType)
	return n, nil
}

// Decode reads the header from the start of b.
func (h *Ethernet) Decode(b []byte) error {
	if len(b) < EthernetLen {
		return cut("Ethernet", ethLayout, EthernetLen, len(b))
	}
	copy(h.Dst[:], b[0:6])
	copy(h.Src[:], b[6:12])
	et := be.Uint16(b[12:])
	if et != EtherTypeVLAN {
		h.Tagged = false
		h.VLAN = VLANTag{}
		h.EtherType = et
		return nil
	}
	if len(b) < EthernetVLANLen {
		return cut("Ethernet", ethLayout, EthernetVLANLen, len(b))
	}
	tci := be.Uint16(b[14:])
	h.Tagged = true
	h.VLAN = VLANTag{PCP: uint8(tci >> 13), DEI: tci&0x1000 != 0, VID: tci & 0x0FFF}
	h.EtherType = be.Uint16(b[16:])
	return nil
}
