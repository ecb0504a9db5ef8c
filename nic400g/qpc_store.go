package nic400g

import (
	"fmt"
	"unsafe"
)

// DefaultQPCount is the number of QPs per NIC the model is sized for: the
// seed target of 850k (ARCHITECTURE "Fidelity"; FACTS 5.1 sizes its
// context storage).
const DefaultQPCount = 850_000

// DefaultHostContextBytes is the modelled size of one QP context in host
// memory, which is what a cache miss reads over PCIe: the HiSilicon RoCE
// v2 QPC of 256 B (FACTS 5.1, S [R46]); the mlx5 software-visible QPC is
// 232 B (S [R45], size E).
const DefaultHostContextBytes = 256

// QPState is the coarse state of a QP.
type QPState uint8

// QP states, as in the verbs state machine.
const (
	QPReset QPState = iota
	QPInit
	QPReadyToReceive
	QPReadyToSend
	QPError
)

// QPContext is the per-QP state the model keeps for every QP, idle or
// not: only what an idle QP must remember. Congestion control, the
// receive window and retransmission state of a QP that is sending live in
// an ActiveSlab and are reached through Active. 24 bytes.
type QPContext struct {
	// DestQP is the remote QP number (24 bits, FACTS 1.2 BTH DestQP).
	DestQP uint32
	// SendPSN is the next PSN to send (FACTS 1.2).
	SendPSN PSN
	// AckedPSN is the oldest PSN not yet acknowledged.
	AckedPSN PSN
	// RecvPSN is the next PSN expected on receive.
	RecvPSN PSN
	// Active is the QP's slot in the active slab, or NoSlot when idle.
	Active int32
	// State is the QP state.
	State QPState
	// LogMTU is log2 of the path MTU (8 to 12: 256 to 4096 B).
	LogMTU uint8
	// Retry holds the retry counter (low 3 bits) and RNR retry counter
	// (next 3 bits), as in a verbs QP context.
	Retry uint8
	// Flags is free for per-QP mode bits of the transport.
	Flags uint8
}

// NoSlot is QPContext.Active of an idle QP.
const NoSlot int32 = -1

// QPStore is the backing store of the contexts of every QP of a NIC, the
// host-memory table that mlx4/mlx5-style NICs keep per object type (FACTS
// 5.1, "ICM" tables, S [R47b]). The model holds it as compact arrays of
// QPContext, a page of qpPageContexts at a time, each made when one of its
// QPs is first asked for: a NIC of 1024 QPs that uses two holds one or two
// pages of 1.5 KiB rather than 24 KiB.
// HostBytes reports what the modelled host memory holds.
type QPStore struct {
	pages     [][]QPContext // nil until a QP of the page is asked for
	n         int
	held      int // contexts in the pages made
	hostBytes int
}

// qpPageContexts is the number of contexts a page of a QPStore holds.
const qpPageContexts = 64

// NewQPStore returns a store of n QPs (at most 2^24, FACTS 1.2) whose
// contexts occupy hostContextBytes each in modelled host memory, all in
// the reset state and idle.
func NewQPStore(n, hostContextBytes int) (*QPStore, error) {
	if n <= 0 || n > 1<<24 {
		return nil, fmt.Errorf("qp store: %d QPs; use 1 to 2^24", n)
	}
	if hostContextBytes <= 0 {
		return nil, fmt.Errorf("qp store: host context of %d bytes", hostContextBytes)
	}
	pages := (n + qpPageContexts - 1) / qpPageContexts
	return &QPStore{pages: make([][]QPContext, pages), n: n, hostBytes: hostContextBytes}, nil
}

// Len returns the number of QPs.
func (s *QPStore) Len() int { return s.n }

// Context returns the context of qp (0 <= qp < Len). A QP never asked for
// before is in the reset state and idle.
func (s *QPStore) Context(qp uint32) *QPContext {
	page := s.pages[qp/qpPageContexts]
	if page == nil {
		page = s.makePage(int(qp / qpPageContexts))
	}
	return &page[qp%qpPageContexts]
}

// makePage makes page i of the store, its QPs reset and idle (the last
// page holds only the QPs below Len).
func (s *QPStore) makePage(i int) []QPContext {
	page := make([]QPContext, min(qpPageContexts, s.n-i*qpPageContexts))
	for k := range page {
		page[k].Active = NoSlot
		page[k].LogMTU = 12
	}
	s.pages[i] = page
	s.held += len(page)
	return page
}

// ModelBytesPerQP returns the model memory one idle QP costs once its page
// is made.
func (s *QPStore) ModelBytesPerQP() int { return int(unsafe.Sizeof(QPContext{})) }

// ModelBytes returns the model memory of the whole store once every QP has
// been asked for; HeldBytes is what it holds so far.
func (s *QPStore) ModelBytes() uint64 { return uint64(s.n) * uint64(s.ModelBytesPerQP()) }

// HeldBytes returns the model memory of the contexts the store holds: the
// pages of the QPs asked for so far.
func (s *QPStore) HeldBytes() uint64 {
	return uint64(s.held) * uint64(s.ModelBytesPerQP())
}

// HostContextBytes returns the modelled host-memory size of one context.
func (s *QPStore) HostContextBytes() int { return s.hostBytes }

// HostBytes returns the modelled host memory of the whole table (FACTS
// 5.1: 850k × 256 B = 217.6 MB, E).
func (s *QPStore) HostBytes() uint64 { return uint64(s.n) * uint64(s.hostBytes) }

// ActiveSlab holds per-QP state of type T (congestion control, receive
// window, retransmission) for active QPs only, in slots reused through a
// free list, so that memory follows the number of active QPs rather than
// the number of QPs. Activate and Release never allocate.
type ActiveSlab[T any] struct {
	items []T
	owner []uint32
	free  []int32
}

// NewActiveSlab returns a slab of capacity slots.
func NewActiveSlab[T any](capacity int) (*ActiveSlab[T], error) {
	if capacity <= 0 || capacity > 1<<24 {
		return nil, fmt.Errorf("active slab: %d slots; use 1 to 2^24", capacity)
	}
	s := &ActiveSlab[T]{items: make([]T, capacity), owner: make([]uint32, capacity), free: make([]int32, capacity)}
	for i := range s.free {
		s.free[i] = int32(capacity - 1 - i) // slot 0 is handed out first
	}
	return s, nil
}

// Activate gives qp of store a slot, or returns its slot if it has one,
// and returns the state there. The state of a new slot is the zero T. ok
// is false when every slot is taken.
func (s *ActiveSlab[T]) Activate(store *QPStore, qp uint32) (state *T, ok bool) {
	c := store.Context(qp)
	if c.Active != NoSlot {
		return &s.items[c.Active], true
	}
	if len(s.free) == 0 {
		return nil, false
	}
	slot := s.free[len(s.free)-1]
	s.free = s.free[:len(s.free)-1]
	var zero T
	s.items[slot] = zero
	s.owner[slot] = qp
	c.Active = slot
	return &s.items[slot], true
}

// State returns the active state of qp, or nil when qp is idle.
func (s *ActiveSlab[T]) State(store *QPStore, qp uint32) *T {
	if a := store.Context(qp).Active; a != NoSlot {
		return &s.items[a]
	}
	return nil
}

// Release returns the slot of qp, if it has one, to the free list.
func (s *ActiveSlab[T]) Release(store *QPStore, qp uint32) {
	c := store.Context(qp)
	if c.Active == NoSlot {
		return
	}
	s.free = append(s.free, c.Active) // within capacity: never grows
	c.Active = NoSlot
}

// InUse returns the number of taken slots.
func (s *ActiveSlab[T]) InUse() int { return len(s.items) - len(s.free) }

// Capacity returns the number of slots.
func (s *ActiveSlab[T]) Capacity() int { return len(s.items) }

// BytesPerSlot returns the model memory of one slot (state plus owner
// and free-list entries).
func (s *ActiveSlab[T]) BytesPerSlot() int {
	var zero T
	return int(unsafe.Sizeof(zero)) + 4 + 4
}
