package packet

// Atomic header sizes (FACTS 1.2 [R5][R79][R81]).
const (
	// AtomicETHLen is the atomic extended transport header.
	AtomicETHLen = 28
	// AtomicAckETHLen is the atomic acknowledge header.
	AtomicAckETHLen = 8
)

// AtomicETH is the atomic extended transport header of COMPARE_SWAP and
// FETCH_ADD: VA 64b, R_Key 32b, swap/add 64b, compare 64b (FACTS 1.2 [R5]).
type AtomicETH struct {
	VA      uint64
	RKey    uint32
	SwapAdd uint64 // swap value, or the addend of FETCH_ADD
	Compare uint64 // compare value of COMPARE_SWAP
}

var atomicLayout = []span{{0, "VA"}, {8, "RKey"}, {12, "SwapAdd"}, {20, "Compare"}}

// Encode writes the header into b.
func (h *AtomicETH) Encode(b []byte) (int, error) {
	if len(b) < AtomicETHLen {
		return 0, short("AtomicETH", AtomicETHLen, len(b))
	}
	be.PutUint64(b[0:], h.VA)
	be.PutUint32(b[8:], h.RKey)
	be.PutUint64(b[12:], h.SwapAdd)
	be.PutUint64(b[20:], h.Compare)
	return AtomicETHLen, nil
}

// Decode reads the header from the start of b.
func (h *AtomicETH) Decode(b []byte) error {
	if len(b) < AtomicETHLen {
		return cut("AtomicETH", atomicLayout, AtomicETHLen, len(b))
	}
	h.VA = be.Uint64(b[0:])
	h.RKey = be.Uint32(b[8:])
	h.SwapAdd = be.Uint64(b[12:])
	h.Compare = be.Uint64(b[20:])
	return nil
}

// AtomicAckETH carries the original remote data of an atomic operation,
// one 64-bit field following the AETH (FACTS 1.2 [R5][R79]).
type AtomicAckETH struct {
	OrigData uint64
}

// Encode writes the header into b.
func (h *AtomicAckETH) Encode(b []byte) (int, error) {
	if len(b) < AtomicAckETHLen {
		return 0, short("AtomicAckETH", AtomicAckETHLen, len(b))
	}
	be.PutUint64(b, h.OrigData)
	return AtomicAckETHLen, nil
}

// Decode reads the header from the start of b.
func (h *AtomicAckETH) Decode(b []byte) error {
	if len(b) < AtomicAckETHLen {
		return truncated("AtomicAckETH", "OrigData", AtomicAckETHLen, len(b))
	}
	h.OrigData = be.Uint64(b)
	return nil
}
