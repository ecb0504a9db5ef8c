package packet

// LRH sizes and next-header codes (FACTS 1.2 [R6b][R79][R5]).
const (
	// LRHLen is the IB local route header: four 16-bit words.
	LRHLen = 8
	// LNHBTH says a BTH follows the LRH (IBA local transport).
	LNHBTH = 0x2
	// LNHGRH says a GRH follows the LRH (IBA global transport).
	LNHGRH = 0x3
)

// LRH is the InfiniBand local route header (FACTS 1.2 [R79][R5]):
// VL 4 | LVer 4 | SL 4 | rsv 2 | LNH 2 | DLID 16 | rsv 5 | PktLen 11 | SLID 16.
// PktLen counts 4-byte words from the first LRH byte up to and including the
// ICRC; the VCRC is not counted (qib/hfi1 set it to header words + payload
// words + 1 for the ICRC, [R6b]).
//
// Length policy: Decode is given the packet from the first LRH byte;
// PktLen*4 may not be below the LRH itself nor exceed len(b).
type LRH struct {
	VL     uint8  // virtual lane, 4 bits
	LVer   uint8  // link version, 4 bits; 0 is the only version
	SL     uint8  // service level, 4 bits
	Rsvd2  uint8  // reserved, 2 bits (byte 1 bits 3:2)
	LNH    uint8  // link next header, 2 bits
	DLID   uint16 // destination LID
	Rsvd5  uint8  // reserved, 5 bits (word 2 bits 15:11)
	PktLen uint16 // 11 bits, in 4-byte words
	SLID   uint16 // source LID
}

var lrhLayout = []span{{0, "VL"}, {1, "SL"}, {2, "DLID"}, {4, "PktLen"}, {6, "SLID"}}

// Encode writes the header into b.
func (h *LRH) Encode(b []byte) (int, error) {
	if len(b) < LRHLen {
		return 0, short("LRH", LRHLen, len(b))
	}
	if h.VL>>4|h.LVer>>4|h.SL>>4|h.Rsvd2>>2|h.LNH>>2|h.Rsvd5>>5 != 0 || h.PktLen>>11 != 0 {
		return 0, h.wideField()
	}
	b[0] = h.VL<<4 | h.LVer
	b[1] = h.SL<<4 | h.Rsvd2<<2 | h.LNH
	be.PutUint16(b[2:], h.DLID)
	be.PutUint16(b[4:], uint16(h.Rsvd5)<<11|h.PktLen)
	be.PutUint16(b[6:], h.SLID)
	return LRHLen, nil
}

// Decode reads the header from the start of b.
func (h *LRH) Decode(b []byte) error {
	if len(b) < LRHLen {
		return cut("LRH", lrhLayout, LRHLen, len(b))
	}
	if v := b[0] & 0x0F; v != 0 {
		return badField("LRH", "LVer", BadVersion, uint64(v))
	}
	w2 := be.Uint16(b[4:])
	pl := w2 & 0x07FF
	if int(pl)*4 < LRHLen || int(pl)*4 > len(b) {
		return badField("LRH", "PktLen", BadLength, uint64(pl))
	}
	h.VL = b[0] >> 4
	h.LVer = 0
	h.SL = b[1] >> 4
	h.Rsvd2 = b[1] >> 2 & 3
	h.LNH = b[1] & 3
	h.DLID = be.Uint16(b[2:])
	h.Rsvd5 = uint8(w2 >> 11)
	h.PktLen = pl
	h.SLID = be.Uint16(b[6:])
	return nil
}

// wideField names the first field whose value does not fit its width.
func (h *LRH) wideField() error {
	for _, f := range [...]struct {
		name string
		v    uint64
		bits uint
	}{{"VL", uint64(h.VL), 4}, {"LVer", uint64(h.LVer), 4}, {"SL", uint64(h.SL), 4},
		{"Rsvd2", uint64(h.Rsvd2), 2}, {"LNH", uint64(h.LNH), 2}, {"Rsvd5", uint64(h.Rsvd5), 5},
		{"PktLen", uint64(h.PktLen), 11}} {
		if err := tooWide("LRH", f.name, f.v, f.bits); err != nil {
			return err
		}
	}
	return nil
}
