package packet

// PDSType is the 5-bit UET PDS packet type (FACTS 2.6 [R21]).
type PDSType uint8

// PDS packet types (FACTS 2.6 [R21]).
const (
	PDSTypeTSS      PDSType = 1
	PDSTypeRUDReq   PDSType = 2
	PDSTypeRODReq   PDSType = 3
	PDSTypeRUDIReq  PDSType = 4
	PDSTypeRUDIResp PDSType = 5
	PDSTypeUUDReq   PDSType = 6
	PDSTypeAck      PDSType = 7
	PDSTypeAckCC    PDSType = 8
	PDSTypeAckCCX   PDSType = 9
	PDSTypeNack     PDSType = 10
	PDSTypeControl  PDSType = 11
	PDSTypeNackCCX  PDSType = 12
	PDSTypeRUDCCReq PDSType = 13
	PDSTypeRODCCReq PDSType = 14
)

// PDS header sizes (FACTS 2.6 [R21]).
const (
	// PDSRequestLen is a RUD/ROD request header.
	PDSRequestLen = 12
	// PDSRequestCCLen is a RUD/ROD request carrying CC state (+4 B).
	PDSRequestCCLen = PDSRequestLen + 4
)

// The PDS prologue is one big-endian 16-bit word: type[15:11],
// next header (or control type)[10:7], seven type-specific flag bits[6:0]
// (FACTS 2.6 [R21]: UET_PDS_PROLOGUE_TYPE_MASK 0xf804, SYN at bit 2).
func pdsPrologue(t PDSType, next uint8, flags uint16) uint16 {
	return uint16(t)<<11 | uint16(next)<<7 | flags
}

// pdsSplit splits a prologue into type, next header and flag bits.
func pdsSplit(w uint16) (PDSType, uint8, uint16) {
	return PDSType(w >> 11), uint8(w >> 7 & 0xF), w & 0x7F
}

// pdsCheck validates the type and next-header widths before encoding.
func pdsCheck(header string, t PDSType, next uint8) error {
	if err := tooWide(header, "Type", uint64(t), 5); err != nil {
		return err
	}
	return tooWide(header, "NextHdr", uint64(next), 4)
}

// PDSRequest is the UET PDS RUD/ROD request header, 12 bytes, with 4 more
// bytes of CC state when Type is RUD_CC_REQ or ROD_CC_REQ (FACTS 2.6 [R21]):
//
//	type 5 | next_hdr 4 | rsvd 2 | retrans | ackreq | syn | rsvd 2
//	clear_psn_offset 16 | psn 32 | spdcid 16 | dpdcid 16
//	[ccc_id 8 | credit_target 24]
//
// On a SYN the DPDCID field carries use_rsv_pdc 1b, 3 reserved bits and a
// 12-bit PSN offset instead; see UseRsvPDC and PSNOffset.
type PDSRequest struct {
	Type           PDSType // RUD_REQ, ROD_REQ, RUD_CC_REQ or ROD_CC_REQ
	NextHdr        uint8   // 4 bits: the SES header that follows
	Rsvd1          uint8   // 2 bits
	Retrans        bool
	AckReq         bool
	SYN            bool
	Rsvd2          uint8  // 2 bits
	ClearPSNOffset uint16 // PSNs below PSN-ClearPSNOffset may be cleared
	PSN            uint32
	SPDCID         uint16
	DPDCID         uint16 // or use_rsv_pdc|rsvd|psn_offset on a SYN
	CCCID          uint8  // CC context, only in the CC types
	CreditTarget   uint32 // 24 bits, only in the CC types
}

var pdsReqLayout = []span{{0, "Type"}, {2, "ClearPSNOffset"}, {4, "PSN"}, {8, "SPDCID"}, {10, "DPDCID"},
	{12, "CCCID"}, {13, "CreditTarget"}}

// HasCC reports whether the type carries the 4-byte CC state.
func (h *PDSRequest) HasCC() bool { return h.Type == PDSTypeRUDCCReq || h.Type == PDSTypeRODCCReq }

// Len is 12, or 16 with CC state.
func (h *PDSRequest) Len() int {
	if h.HasCC() {
		return PDSRequestCCLen
	}
	return PDSRequestLen
}

// UseRsvPDC is the use_rsv_pdc bit of a SYN's DPDCID field.
func (h *PDSRequest) UseRsvPDC() bool { return h.DPDCID&0x8000 != 0 }

// PSNOffset is the 12-bit PSN offset of a SYN's DPDCID field.
func (h *PDSRequest) PSNOffset() uint16 { return h.DPDCID & 0x0FFF }

func validRequestType(t PDSType) bool {
	return t == PDSTypeRUDReq || t == PDSTypeRODReq || t == PDSTypeRUDCCReq || t == PDSTypeRODCCReq
}

// Encode writes the header into b.
func (h *PDSRequest) Encode(b []byte) (int, error) {
	if !validRequestType(h.Type) {
		return 0, badField("PDSRequest", "Type", BadValue, uint64(h.Type))
	}
	if err := pdsCheck("PDSRequest", h.Type, h.NextHdr); err != nil {
		return 0, err
	}
	if err := tooWide("PDSRequest", "Rsvd1", uint64(h.Rsvd1), 2); err != nil {
		return 0, err
	}
	if err := tooWide("PDSRequest", "Rsvd2", uint64(h.Rsvd2), 2); err != nil {
		return 0, err
	}
	if err := tooWide("PDSRequest", "CreditTarget", uint64(h.CreditTarget), 24); err != nil {
		return 0, err
	}
	n := h.Len()
	if len(b) < n {
		return 0, short("PDSRequest", n, len(b))
	}
	flags := uint16(h.Rsvd1)<<5 | uint16(b2u(h.Retrans))<<4 | uint16(b2u(h.AckReq))<<3 |
		uint16(b2u(h.SYN))<<2 | uint16(h.Rsvd2)
	be.PutUint16(b[0:], pdsPrologue(h.Type, h.NextHdr, flags))
	be.PutUint16(b[2:], h.ClearPSNOffset)
	be.PutUint32(b[4:], h.PSN)
	be.PutUint16(b[8:], h.SPDCID)
	be.PutUint16(b[10:], h.DPDCID)
	if h.HasCC() {
		b[12] = h.CCCID
		put24(b[13:], h.CreditTarget)
	}
	return n, nil
}

// Decode reads the header from the start of b. Types other than the four
// request types are BadValue on "Type".
func (h *PDSRequest) Decode(b []byte) error {
	if len(b) < PDSRequestLen {
		return cut("PDSRequest", pdsReqLayout, PDSRequestLen, len(b))
	}
	t, next, flags := pdsSplit(be.Uint16(b))
	if !validRequestType(t) {
		return badField("PDSRequest", "Type", BadValue, uint64(t))
	}
	h.Type = t
	if h.HasCC() && len(b) < PDSRequestCCLen {
		return cut("PDSRequest", pdsReqLayout, PDSRequestCCLen, len(b))
	}
	h.NextHdr = next
	h.Rsvd1 = uint8(flags >> 5 & 3)
	h.Retrans = flags&(1<<4) != 0
	h.AckReq = flags&(1<<3) != 0
	h.SYN = flags&(1<<2) != 0
	h.Rsvd2 = uint8(flags & 3)
	h.ClearPSNOffset = be.Uint16(b[2:])
	h.PSN = be.Uint32(b[4:])
	h.SPDCID = be.Uint16(b[8:])
	h.DPDCID = be.Uint16(b[10:])
	h.CCCID, h.CreditTarget = 0, 0
	if h.HasCC() {
		h.CCCID = b[12]
		h.CreditTarget = get24(b[13:])
	}
	return nil
}
