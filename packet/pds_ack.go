package packet

// PDS ACK sizes (FACTS 2.6 [R21]).
const (
	// PDSAckLen is the PDS ACK header.
	PDSAckLen = 12
	// PDSAckCCExtLen is what ACK_CC adds to the ACK header.
	PDSAckCCExtLen = 20
	// PDSAckCCLen is the whole ACK_CC header.
	PDSAckCCLen = PDSAckLen + PDSAckCCExtLen
)

// ACK request codes carried in the ACK's 2-bit request field (FACTS 2.6 [R21]).
const (
	AckRequestNone  uint8 = 0
	AckRequestClear uint8 = 1
	AckRequestClose uint8 = 2
)

// PDSAck is the UET PDS ACK header, 12 bytes (FACTS 2.6 [R21]):
//
//	type 5 | next_hdr 4 | rsvd 1 | ecn_marked | retrans | probe | request 2 | rsvd 1
//	ack_psn_offset 16 (probe_opaque on a probe reply) | cack_psn 32 | spdcid 16 | dpdcid 16
//
// The Type is ACK (7) for a plain ACK and ACK_CC (8) inside PDSAckCC.
type PDSAck struct {
	Type         PDSType
	NextHdr      uint8 // 4 bits
	Rsvd1        bool
	ECNMarked    bool
	Retrans      bool
	Probe        bool
	Request      uint8 // 2 bits: AckRequestNone, Clear or Close
	Rsvd2        bool
	AckPSNOffset uint16 // acknowledged PSN minus CAckPSN
	CAckPSN      uint32 // cumulative ACK PSN
	SPDCID       uint16
	DPDCID       uint16
}

var pdsAckLayout = []span{{0, "Type"}, {2, "AckPSNOffset"}, {4, "CAckPSN"}, {8, "SPDCID"}, {10, "DPDCID"},
	{12, "CCType"}, {13, "MPR"}, {14, "SACKPSNOffset"}, {16, "SACKBitmap"}, {24, "CCState"}}

func (h *PDSAck) put(b []byte, header string) error {
	if err := pdsCheck(header, h.Type, h.NextHdr); err != nil {
		return err
	}
	if err := tooWide(header, "Request", uint64(h.Request), 2); err != nil {
		return err
	}
	flags := uint16(b2u(h.Rsvd1))<<6 | uint16(b2u(h.ECNMarked))<<5 | uint16(b2u(h.Retrans))<<4 |
		uint16(b2u(h.Probe))<<3 | uint16(h.Request)<<1 | uint16(b2u(h.Rsvd2))
	be.PutUint16(b[0:], pdsPrologue(h.Type, h.NextHdr, flags))
	be.PutUint16(b[2:], h.AckPSNOffset)
	be.PutUint32(b[4:], h.CAckPSN)
	be.PutUint16(b[8:], h.SPDCID)
	be.PutUint16(b[10:], h.DPDCID)
	return nil
}

func (h *PDSAck) get(b []byte, header string, want PDSType) error {
	t, next, flags := pdsSplit(be.Uint16(b))
	if t != want {
		return badField(header, "Type", BadValue, uint64(t))
	}
	h.Type = t
	h.NextHdr = next
	h.Rsvd1 = flags&(1<<6) != 0
	h.ECNMarked = flags&(1<<5) != 0
	h.Retrans = flags&(1<<4) != 0
	h.Probe = flags&(1<<3) != 0
	h.Request = uint8(flags >> 1 & 3)
	h.Rsvd2 = flags&1 != 0
	h.AckPSNOffset = be.Uint16(b[2:])
	h.CAckPSN = be.Uint32(b[4:])
	h.SPDCID = be.Uint16(b[8:])
	h.DPDCID = be.Uint16(b[10:])
	return nil
}

// Encode writes the header into b. Type must be ACK.
func (h *PDSAck) Encode(b []byte) (int, error) {
	if h.Type != PDSTypeAck {
		return 0, badField("PDSAck", "Type", BadValue, uint64(h.Type))
	}
	if len(b) < PDSAckLen {
		return 0, short("PDSAck", PDSAckLen, len(b))
	}
	if err := h.put(b, "PDSAck"); err != nil {
		return 0, err
	}
	return PDSAckLen, nil
}

// Decode reads the header from the start of b; a type other than ACK is
// BadValue on "Type".
func (h *PDSAck) Decode(b []byte) error {
	if len(b) < PDSAckLen {
		return cut("PDSAck", pdsAckLayout, PDSAckLen, len(b))
	}
	return h.get(b, "PDSAck", PDSTypeAck)
}

// CC types of an ACK_CC (FACTS 2.6 [R21]).
const (
	CCTypeNSCC   uint8 = 0
	CCTypeCredit uint8 = 1
)

// PDSAckCC is the ACK_CC header: the 12-byte ACK (Type ACK_CC) and 20 more
// bytes (FACTS 2.6 [R21]):
//
//	cc_type 4 | cc_flags 4 | mpr 8 | sack_psn_offset 16 | sack_bitmap 64 | cc_state 64
//
// CCState holds the 8 bytes that NSCC and credit CC read differently; the
// NSCC and Credit methods give the typed views, in MSB-first order.
type PDSAckCC struct {
	PDSAck
	CCType        uint8 // 4 bits: CCTypeNSCC or CCTypeCredit
	CCFlags       uint8 // 4 bits, reserved
	MPR           uint8 // maximum PSN range
	SACKPSNOffset uint16
	SACKBitmap    uint64
	CCState       uint64
}

// NSCCState is the NSCC view of CCState: service_time 16b, restore_cwnd 1b,
// rcv_cwnd_pend 7b, rcvd_bytes 24b, ooo_count 16b (FACTS 2.6 [R21]).
type NSCCState struct {
	ServiceTime uint16
	RestoreCwnd bool
	RcvCwndPend uint8  // 7 bits
	RcvdBytes   uint32 // 24 bits
	OOOCount    uint16
}

// Pack returns the 64-bit CCState word; fields wider than their bits are masked.
func (s NSCCState) Pack() uint64 {
	return uint64(s.ServiceTime)<<48 | uint64(b2u(s.RestoreCwnd))<<47 | uint64(s.RcvCwndPend&0x7F)<<40 |
		uint64(s.RcvdBytes&0xFFFFFF)<<16 | uint64(s.OOOCount)
}

// CreditState is the credit-CC view of CCState: credit 24b, 24 reserved
// bits, ooo_count 16b (FACTS 2.6 [R21]).
type CreditState struct {
	Credit   uint32 // 24 bits
	Rsvd     uint32 // 24 bits
	OOOCount uint16
}

// Pack returns the 64-bit CCState word; fields wider than their bits are masked.
func (s CreditState) Pack() uint64 {
	return uint64(s.Credit&0xFFFFFF)<<40 | uint64(s.Rsvd&0xFFFFFF)<<16 | uint64(s.OOOCount)
}

// NSCC reads CCState as NSCC feedback.
func (h *PDSAckCC) NSCC() NSCCState {
	w := h.CCState
	return NSCCState{ServiceTime: uint16(w >> 48), RestoreCwnd: w>>47&1 != 0, RcvCwndPend: uint8(w >> 40 & 0x7F),
		RcvdBytes: uint32(w >> 16 & 0xFFFFFF), OOOCount: uint16(w)}
}

// Credit reads CCState as credit feedback.
func (h *PDSAckCC) Credit() CreditState {
	w := h.CCState
	return CreditState{Credit: uint32(w >> 40), Rsvd: uint32(w >> 16 & 0xFFFFFF), OOOCount: uint16(w)}
}

// SACKed reports whether the bitmap marks PSN base+i as received, where
// base is the cumulative ACK PSN plus SACKPSNOffset and i < 64.
func (h *PDSAckCC) SACKed(i uint) bool { return i < 64 && h.SACKBitmap>>i&1 != 0 }

// Encode writes the header into b. Type must be ACK_CC.
func (h *PDSAckCC) Encode(b []byte) (int, error) {
	if h.Type != PDSTypeAckCC {
		return 0, badField("PDSAckCC", "Type", BadValue, uint64(h.Type))
	}
	if h.CCType > CCTypeCredit {
		return 0, badField("PDSAckCC", "CCType", BadValue, uint64(h.CCType))
	}
	if err := tooWide("PDSAckCC", "CCFlags", uint64(h.CCFlags), 4); err != nil {
		return 0, err
	}
	if len(b) < PDSAckCCLen {
		return 0, short("PDSAckCC", PDSAckCCLen, len(b))
	}
	if err := h.put(b, "PDSAckCC"); err != nil {
		return 0, err
	}
	b[12] = h.CCType<<4 | h.CCFlags
	b[13] = h.MPR
	be.PutUint16(b[14:], h.SACKPSNOffset)
	be.PutUint64(b[16:], h.SACKBitmap)
	be.PutUint64(b[24:], h.CCState)
	return PDSAckCCLen, nil
}

// Decode reads the header from the start of b. A type other than ACK_CC, or
// a CC type other than NSCC or credit, is BadValue.
func (h *PDSAckCC) Decode(b []byte) error {
	if len(b) < PDSAckCCLen {
		return cut("PDSAckCC", pdsAckLayout, PDSAckCCLen, len(b))
	}
	if err := h.get(b, "PDSAckCC", PDSTypeAckCC); err != nil {
		return err
	}
	if t := b[12] >> 4; t > CCTypeCredit {
		return badField("PDSAckCC", "CCType", BadValue, uint64(t))
	}
	h.CCType = b[12] >> 4
	h.CCFlags = b[12] & 0xF
	h.MPR = b[13]
	h.SACKPSNOffset = be.Uint16(b[14:])
	h.SACKBitmap = be.Uint64(b[16:])
	h.CCState = be.Uint64(b[24:])
	return nil
}
