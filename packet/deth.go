package packet

// DETHLen is the datagram extended transport header (FACTS 1.2 [R5][R81]).
const DETHLen = 8

// DETH is the datagram extended transport header of UD packets: Q_Key 32b,
// 8 reserved bits, source QP 24b (FACTS 1.2 [R5]).
type DETH struct {
	QKey  uint32
	Rsvd8 uint8  // reserved byte before SrcQP
	SrcQP uint32 // 24 bits
}

var dethLayout = []span{{0, "QKey"}, {4, "Rsvd8"}, {5, "SrcQP"}}

// Encode writes the header into b.
func (h *DETH) Encode(b []byte) (int, error) {
	if len(b) < DETHLen {
		return 0, short("DETH", DETHLen, len(b))
	}
	if err := tooWide("DETH", "SrcQP", uint64(h.SrcQP), 24); err != nil {
		return 0, err
	}
	be.PutUint32(b[0:], h.QKey)
	b[4] = h.Rsvd8
	put24(b[5:], h.SrcQP)
	return DETHLen, nil
}

// Decode reads the header from the start of b.
func (h *DETH) Decode(b []byte) error {
	if len(b) < DETHLen {
		return cut("DETH", dethLayout, DETHLen, len(b))
	}
	h.QKey = be.Uint32(b[0:])
	h.Rsvd8 = b[4]
	h.SrcQP = get24(b[5:])
	return nil
}
