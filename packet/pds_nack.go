package packet

// PDSNackLen is the PDS NACK header (FACTS 2.6 [R21]: struct uet_pds_nack).
const PDSNackLen = 16

// NackCode is the 8-bit PDS NACK code (FACTS 2.6 [R21]).
type NackCode uint8

// NACK codes (FACTS 2.6 [R21]).
const (
	NackTrimmed           NackCode = 0x01
	NackTrimmedLastHop    NackCode = 0x02
	NackTrimmedAck        NackCode = 0x03
	NackNoPDC             NackCode = 0x04
	NackNoCCC             NackCode = 0x05
	NackNoBitmap          NackCode = 0x06
	NackNoPktBuffer       NackCode = 0x07
	NackNoGtdDel          NackCode = 0x08
	NackNoSESMsg          NackCode = 0x09
	NackNoResource        NackCode = 0x0A
	NackPSNOutOfWindow    NackCode = 0x0B
	NackRODOutOfOrder     NackCode = 0x0D
	NackInvalidDPDCID     NackCode = 0x0E
	NackPDCHdrMismatch    NackCode = 0x0F
	NackClosing           NackCode = 0x10
	NackClosingInError    NackCode = 0x11
	NackPktNotReceived    NackCode = 0x12
	NackGtdRespUnavail    NackCode = 0x13
	NackAckWithData       NackCode = 0x14
	NackInvalidSYN        NackCode = 0x15
	NackPDCModeMismatch   NackCode = 0x16
	NackNewStartPSN       NackCode = 0x17
	NackRcvdSESProcessing NackCode = 0x18
	NackUnexpectedEvent   NackCode = 0x19
	NackRcvrInferLoss     NackCode = 0x1A
	NackExpNormal         NackCode = 0xFD
	NackExpError          NackCode = 0xFE
	NackExpFatal          NackCode = 0xFF
)

// Known reports whether the code is assigned: 0x01-0x0B, 0x0D-0x1A and the
// experimental 0xFD-0xFF.
func (c NackCode) Known() bool {
	return (c >= 0x01 && c <= 0x1A && c != 0x0C) || c >= 0xFD
}

// IsTrim reports whether the NACK says a packet was trimmed.
func (c NackCode) IsTrim() bool {
	return c == NackTrimmed || c == NackTrimmedLastHop || c == NackTrimmedAck
}

// NACK types: which kind of PDC the NACK refers to (FACTS 2.6 [R21]).
const (
	NackTypeRUDROD uint8 = 0
	NackTypeRUDI   uint8 = 1
)

// PDSNack is the UET PDS NACK header, 16 bytes (FACTS 2.6 [R21]):
//
//	type 5 | next_hdr 4 | rsvd 1 | ecn_marked | retrans | nack_type | rsvd 3
//	nack_code 8 | vendor_code 8 | nack_psn 32 (packet id for RUDI)
//	spdcid 16 | dpdcid 16 | payload 32
//
// Codes outside the assigned set decode without error; NackCode.Known tells.
type PDSNack struct {
	NextHdr    uint8 // 4 bits
	Rsvd1      bool
	ECNMarked  bool
	Retrans    bool
	NackType   uint8 // 1 bit: NackTypeRUDROD or NackTypeRUDI
	Rsvd2      uint8 // 3 bits
	Code       NackCode
	VendorCode uint8
	NackPSN    uint32
	SPDCID     uint16
	DPDCID     uint16
	Payload    uint32
}

var pdsNackLayout = []span{{0, "Type"}, {2, "Code"}, {3, "VendorCode"}, {4, "NackPSN"}, {8, "SPDCID"},
	{10, "DPDCID"}, {12, "Payload"}}

// Encode writes the header into b.
func (h *PDSNack) Encode(b []byte) (int, error) {
	if err := pdsCheck("PDSNack", PDSTypeNack, h.NextHdr); err != nil {
		return 0, err
	}
	if err := tooWide("PDSNack", "NackType", uint64(h.NackType), 1); err != nil {
		return 0, err
	}
	if err := tooWide("PDSNack", "Rsvd2", uint64(h.Rsvd2), 3); err != nil {
		return 0, err
	}
	if len(b) < PDSNackLen {
		return 0, short("PDSNack", PDSNackLen, len(b))
	}
	flags := uint16(b2u(h.Rsvd1))<<6 | uint16(b2u(h.ECNMarked))<<5 | uint16(b2u(h.Retrans))<<4 |
		uint16(h.NackType)<<3 | uint16(h.Rsvd2)
	be.PutUint16(b[0:], pdsPrologue(PDSTypeNack, h.NextHdr, flags))
	b[2] = uint8(h.Code)
	b[3] = h.VendorCode
	be.PutUint32(b[4:], h.NackPSN)
	be.PutUint16(b[8:], h.SPDCID)
	be.PutUint16(b[10:], h.DPDCID)
	be.PutUint32(b[12:], h.Payload)
	return PDSNackLen, nil
}

// Decode reads the header from the start of b; a type other than NACK is
// BadValue on "Type".
func (h *PDSNack) Decode(b []byte) error {
	if len(b) < PDSNackLen {
		return cut("PDSNack", pdsNackLayout, PDSNackLen, len(b))
	}
	t, next, flags := pdsSplit(be.Uint16(b))
	if t != PDSTypeNack {
		return badField("PDSNack", "Type", BadValue, uint64(t))
	}
	h.NextHdr = next
	h.Rsvd1 = flags&(1<<6) != 0
	h.ECNMarked = flags&(1<<5) != 0
	h.Retrans = flags&(1<<4) != 0
	h.NackType = uint8(flags >> 3 & 1)
	h.Rsvd2 = uint8(flags & 7)
	h.Code = NackCode(b[2])
	h.VendorCode = b[3]
	h.NackPSN = be.Uint32(b[4:])
	h.SPDCID = be.Uint16(b[8:])
	h.DPDCID = be.Uint16(b[10:])
	h.Payload = be.Uint32(b[12:])
	return nil
}
