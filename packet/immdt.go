package packet

// ImmDtLen is the immediate data header (FACTS 1.2 [R4]).
const ImmDtLen = 4

// ImmDt is the 32-bit immediate data carried by the *_IMM opcodes
// (FACTS 1.2 [R4]). It follows the RETH or DETH when those are present.
type ImmDt struct {
	Imm uint32
}

// Encode writes the header into b.
func (h *ImmDt) Encode(b []byte) (int, error) {
	if len(b) < ImmDtLen {
		return 0, short("ImmDt", ImmDtLen, len(b))
	}
	be.PutUint32(b, h.Imm)
	return ImmDtLen, nil
}

// Decode reads the header from the start of b.
func (h *ImmDt) Decode(b []byte) error {
	if len(b) < ImmDtLen {
		return truncated("ImmDt", "Imm", ImmDtLen, len(b))
	}
	h.Imm = be.Uint32(b)
	return nil
}
