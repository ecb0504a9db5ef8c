package switchasic

import "fmt"

// Buffer defaults (FACTS 4 [R71]): the Tomahawk 5 MMU as Meta's FBOSS
// switch agent models it, 2 × 341,080 cells of 254 B, on-chip SRAM only.
const (
	// TH5CellBytes is the buffer cell size: 254 B.
	TH5CellBytes = 254
	// TH5CellsPerPool is the cells in each of the two buffer pools.
	TH5CellsPerPool = 341080
	// TH5Pools is the number of buffer pools.
	TH5Pools = 2
	// TH5BufferBytes is the whole buffer: 2 × 341,080 × 254 = 173,268,640 B
	// (173.3 MB, 165.2 MiB).
	TH5BufferBytes = TH5Pools * TH5CellsPerPool * TH5CellBytes
)

// Dynamic-threshold alpha range: alpha = 2^-AlphaShift with AlphaShift a
// 4-bit two's-complement field, so alpha runs from 2^8 down to 2^-7 (a
// model choice, E; FACTS has no switch's alpha encoding).
const (
	// MinAlphaShift is the smallest shift: alpha = 2^8 = 256.
	MinAlphaShift = -8
	// MaxAlphaShift is the largest shift: alpha = 2^-7 = 1/128.
	MaxAlphaShift = 7
)

// SharedBuffer is the cell accounting of the switch buffer (FACTS 4
// [R71]): a number of cells of CellBytes, of which a headroom reserve is
// set aside for lossless (ingress port, class) pairs (FACTS 2.7), a
// reserve for the lossy egress queues (TMConfig.QueueReserveBytes), and
// the rest is the shared pool. A packet takes ceil(bytes / CellBytes) cells.
//
// The dynamic threshold (Choudhury and Hahne, "Dynamic queue length
// thresholds for shared-memory packet switches", IEEE/ACM ToN 1998) lets a
// queue grow while its cells stay within alpha × the shared pool's free
// cells; alpha is a power of two, 2^-AlphaShift, so the limit is a shift
// of the free count. A single queue alone then settles at alpha/(1+alpha)
// of the pool, and N equal queues at alpha/(1+N·alpha) each, always
// leaving some cells free.
//
// All counts are uint64 cells; the type is plain state with no allocation
// per packet.
type SharedBuffer struct {
	cellBytes  uint64
	totalCells uint64
	sharedCap  uint64
	sharedUsed uint64
	hdrmCap    uint64
	hdrmUsed   uint64
	resvCap    uint64 // the queues' guaranteed cells (reserveQueues)
	resvUsed   uint64
	maxUsed    uint64
	alphaShift int
}

// NewSharedBuffer returns a buffer of bufferBytes (whole cells only) in
// cells of cellBytes, with headroomCells reserved out of it and a dynamic
// threshold of alpha = 2^-alphaShift. Errors name the TMConfig field.
func NewSharedBuffer(bufferBytes uint64, cellBytes int, headroomCells uint64, alphaShift int) (*SharedBuffer, error) {
	if cellBytes <= 0 {
		return nil, fmt.Errorf("CellBytes %d; it must be positive", cellBytes)
	}
	total := bufferBytes / uint64(cellBytes)
	if total == 0 {
		return nil, fmt.Errorf("BufferBytes %d holds no cell of %d B", bufferBytes, cellBytes)
	}
	if headroomCells >= total {
		return nil, fmt.Errorf("PFC.HeadroomBytes: the headroom reserve of %d cells leaves nothing of the %d-cell buffer for the shared pool", headroomCells, total)
	}
	if alphaShift < MinAlphaShift || alphaShift > MaxAlphaShift {
		return nil, fmt.Errorf("AlphaShift %d; it must be %d to %d", alphaShift, MinAlphaShift, MaxAlphaShift)
	}
	return &SharedBuffer{
		cellBytes:  uint64(cellBytes),
		totalCells: total,
		sharedCap:  total - headroomCells,
		hdrmCap:    headroomCells,
		alphaShift: alphaShift,
	}, nil
}

// reserveQueues sets cells aside from the shared pool as the queues'
// guaranteed cells (TMConfig.QueueReserveBytes); the error names the
// field when nothing of the pool would be left.
func (b *SharedBuffer) reserveQueues(cells uint64) error {
	if cells >= b.sharedCap {
		return fmt.Errorf("QueueReserveBytes: the queues' reserve of %d cells leaves nothing of the %d-cell shared pool", cells, b.sharedCap)
	}
	b.sharedCap -= cells
	b.resvCap = cells
	return nil
}

// CellsFor returns the cells a packet of bytes takes: ceil(bytes/cell).
func (b *SharedBuffer) CellsFor(bytes int) uint64 {
	return (uint64(bytes) + b.cellBytes - 1) / b.cellBytes
}

// CellBytes returns the cell size in bytes.
func (b *SharedBuffer) CellBytes() int { return int(b.cellBytes) }

// TotalCells returns all cells of the buffer.
func (b *SharedBuffer) TotalCells() uint64 { return b.totalCells }

// SharedCells returns the size of the shared pool in cells.
func (b *SharedBuffer) SharedCells() uint64 { return b.sharedCap }

// HeadroomCells returns the headroom reserve in cells.
func (b *SharedBuffer) HeadroomCells() uint64 { return b.hdrmCap }

// ReserveCells returns the queues' guaranteed cells, set aside from the
// shared pool.
func (b *SharedBuffer) ReserveCells() uint64 { return b.resvCap }

// ReserveUsed returns the cells held in the queues' reserve.
func (b *SharedBuffer) ReserveUsed() uint64 { return b.resvUsed }

// UsedCells returns the cells held: shared, headroom and the queues'
// reserve.
func (b *SharedBuffer) UsedCells() uint64 { return b.sharedUsed + b.hdrmUsed + b.resvUsed }

// SharedUsed returns the cells held in the shared pool.
func (b *SharedBuffer) SharedUsed() uint64 { return b.sharedUsed }

// HeadroomUsed returns the cells held in the headroom reserve.
func (b *SharedBuffer) HeadroomUsed() uint64 { return b.hdrmUsed }

// SharedFree returns the free cells of the shared pool.
func (b *SharedBuffer) SharedFree() uint64 { return b.sharedCap - b.sharedUsed }

// MaxUsedCells returns the most cells ever held at once.
func (b *SharedBuffer) MaxUsedCells() uint64 { return b.maxUsed }

// AlphaShift returns the dynamic-threshold shift: alpha = 2^-AlphaShift.
func (b *SharedBuffer) AlphaShift() int { return b.alphaShift }

// QueueLimit returns the dynamic threshold in cells: alpha × the shared
// pool's free cells, a right shift for alpha < 1 (truncating) and a left
// shift, saturating, for alpha > 1.
func (b *SharedBuffer) QueueLimit() uint64 {
	free := b.SharedFree()
	if b.alphaShift >= 0 {
		return free >> uint(b.alphaShift)
	}
	s := uint(-b.alphaShift)
	if free > ^uint64(0)>>s {
		return ^uint64(0)
	}
	return free << s
}

// TakeShared charges n cells to the shared pool; the caller has checked
// they fit.
func (b *SharedBuffer) TakeShared(n uint64) {
	if n > b.SharedFree() {
		panic(fmt.Sprintf("switchasic: %d shared cells taken with %d free", n, b.SharedFree()))
	}
	b.sharedUsed += n
	b.noteUsed()
}

// TakeHeadroom charges n cells to the headroom reserve; the caller has
// checked the (port, class) share.
func (b *SharedBuffer) TakeHeadroom(n uint64) {
	if b.hdrmUsed+n > b.hdrmCap {
		panic(fmt.Sprintf("switchasic: %d headroom cells taken with %d of %d used", n, b.hdrmUsed, b.hdrmCap))
	}
	b.hdrmUsed += n
	b.noteUsed()
}

// TakeReserve charges n cells to the queues' reserve; the caller has
// checked the queue's share.
func (b *SharedBuffer) TakeReserve(n uint64) {
	if b.resvUsed+n > b.resvCap {
		panic(fmt.Sprintf("switchasic: %d reserve cells taken with %d of %d used", n, b.resvUsed, b.resvCap))
	}
	b.resvUsed += n
	b.noteUsed()
}

// PutReserve returns n cells to the queues' reserve.
func (b *SharedBuffer) PutReserve(n uint64) {
	if n > b.resvUsed {
		panic(fmt.Sprintf("switchasic: %d reserve cells released with %d held", n, b.resvUsed))
	}
	b.resvUsed -= n
}

// PutShared returns n cells to the shared pool.
func (b *SharedBuffer) PutShared(n uint64) {
	if n > b.sharedUsed {
		panic(fmt.Sprintf("switchasic: %d shared cells released with %d held", n, b.sharedUsed))
	}
	b.sharedUsed -= n
}

// PutHeadroom returns n cells to the headroom reserve.
func (b *SharedBuffer) PutHeadroom(n uint64) {
	if n > b.hdrmUsed {
		panic(fmt.Sprintf("switchasic: %d headroom cells released with %d held", n, b.hdrmUsed))
	}
	b.hdrmUsed -= n
}

func (b *SharedBuffer) noteUsed() {
	if u := b.UsedCells(); u > b.maxUsed {
		b.maxUsed = u
	}
}
