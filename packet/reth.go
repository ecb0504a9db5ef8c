package packet

// RETHLen is the RDMA extended transport header (FACTS 1.2 [R5][R81]).
const RETHLen = 16

// RETH is the RDMA extended transport header: VA 64b, R_Key 32b, DMA
// length 32b (FACTS 1.2 [R5]). It follows the BTH in RDMA WRITE FIRST/ONLY
// packets and READ requests.
type RETH struct {
	VA     uint64 // remote virtual address
	RKey   uint32 // remote key
	DMALen uint32 // bytes of the whole transfer
}

var rethLayout = []span{{0, "VA"}, {8, "RKey"}, {12, "DMALen"}}

// Encode writes the header into b.
func (h *RETH) Encode(b []byte) (int, error) {
	if len(b) < RETHLen {
		return 0, short("RETH", RETHLen, len(b))
	}
	be.PutUint64(b[0:], h.VA)
	be.PutUint32(b[8:], h.RKey)
	be.PutUint32(b[12:], h.DMALen)
	return RETHLen, nil
}

// Decode reads the header from the start of b.
func (h *RETH) Decode(b []byte) error {
	if len(b) < RETHLen {
		return cut("RETH", rethLayout, RETHLen, len(b))
	}
	h.VA = be.Uint64(b[0:])
	h.RKey = be.Uint32(b[8:])
	h.DMALen = be.Uint32(b[12:])
	return nil
}
