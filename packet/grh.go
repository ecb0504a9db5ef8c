package packet

// GRH sizes and constants (FACTS 1.1 [R2][R5]).
const (
	// GRHLen is the IB global route header, laid out like IPv6.
	GRHLen = 40
	// GRHNextHdrBTH is the GRH NxtHdr value announcing a BTH (0x1B, FACTS 1.1 [R5]).
	GRHNextHdrBTH = 0x1B
)

// GRH is the InfiniBand global route header (FACTS 1.1 [R2]): IPVer=6,
// TClass 8b, FlowLabel 20b, PayLen 16b, NxtHdr 8b, HopLmt 8b, SGID and DGID
// 128b each. It is also what RoCEv1 carries directly over Ethernet.
//
// Length policy: Decode is given the packet from the first GRH byte;
// PayLen may not claim more bytes than follow the GRH in b.
type GRH struct {
	TClass    uint8
	FlowLabel uint32 // 20 bits
	PayLen    uint16 // bytes after the GRH up to and including the ICRC
	NxtHdr    uint8
	HopLmt    uint8
	SGID      [16]byte
	DGID      [16]byte
}

var grhLayout = []span{{0, "IPVer"}, {4, "PayLen"}, {6, "NxtHdr"}, {7, "HopLmt"}, {8, "SGID"}, {24, "DGID"}}

// Encode writes the header into b.
func (h *GRH) Encode(b []byte) (int, error) {
	if len(b) < GRHLen {
		return 0, short("GRH", GRHLen, len(b))
	}
	if err := tooWide("GRH", "FlowLabel", uint64(h.FlowLabel), 20); err != nil {
		return 0, err
	}
	putV6Layout(b, h.TClass, h.FlowLabel, h.PayLen, h.NxtHdr, h.HopLmt, &h.SGID, &h.DGID)
	return GRHLen, nil
}

// Decode reads the header from the start of b.
func (h *GRH) Decode(b []byte) error {
	if len(b) < GRHLen {
		return cut("GRH", grhLayout, GRHLen, len(b))
	}
	w := be.Uint32(b)
	if v := w >> 28; v != 6 {
		return badField("GRH", "IPVer", BadVersion, uint64(v))
	}
	pl := be.Uint16(b[4:])
	if int(pl) > len(b)-GRHLen {
		return badField("GRH", "PayLen", BadLength, uint64(pl))
	}
	h.TClass = uint8(w >> 20)
	h.FlowLabel = w & 0xFFFFF
	h.PayLen = pl
	h.NxtHdr = b[6]
	h.HopLmt = b[7]
	copy(h.SGID[:], b[8:24])
	copy(h.DGID[:], b[24:40])
	return nil
}
