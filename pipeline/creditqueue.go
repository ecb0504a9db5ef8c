package pipeline

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// CreditQueueConfig sizes a CreditQueue. Sizes are counted in units: bytes,
// or cells of CellBytes bytes when CellBytes > 0 (a packet then takes
// ceil(bytes / CellBytes) cells, here and downstream).
type CreditQueueConfig struct {
	// Capacity is the queue's own buffer in units; 0 means unbounded.
	Capacity uint64
	// CellBytes is the cell size in bytes; 0 counts bytes.
	CellBytes uint32
	// Credits is the downstream buffer in units, the credits held at
	// reset; 0 means no flow control toward downstream.
	Credits uint64
}

// CreditQueue is a byte- or cell-counted FIFO of items with a credit
// counter toward a downstream buffer: the head may leave only when the
// credits cover its size, leaving spends them, and the downstream returns
// them when it frees its buffer. It is state inside one component (it is
// not a kernel state element): push, pop and return credits from that
// component's Eval, as a hardware queue with its credit counter would be
// updated at the clock edge. It allocates only when its ring grows.
type CreditQueue[T any] struct {
	cfg     CreditQueueConfig
	ring    []creditEntry[T]
	head, n int
	used    uint64 // units held
	credits uint64 // credits held toward downstream

	occupancy, creditGauge *rtlmodel.Gauge
	pushed, sent, refused  *rtlmodel.Counter
}

type creditEntry[T any] struct {
	item  T
	bytes uint32
}

// NewCreditQueue returns an empty queue holding cfg.Credits credits.
func NewCreditQueue[T any](cfg CreditQueueConfig) *CreditQueue[T] {
	return &CreditQueue[T]{cfg: cfg, ring: make([]creditEntry[T], 16), credits: cfg.Credits}
}

// Observe registers the queue's statistics under name in r: occupancy and
// credits (gauges, in units) and pushed, sent and refused items (counters).
func (q *CreditQueue[T]) Observe(r *rtlmodel.Registry, name string) {
	unit := "bytes"
	if q.cfg.CellBytes > 0 {
		unit = "cells"
	}
	q.occupancy = r.Gauge(name+"/occupancy", unit, "units held in the queue")
	q.creditGauge = r.Gauge(name+"/credits", unit, "credits held toward the downstream buffer")
	q.pushed = r.Counter(name+"/pushed", "items", "items accepted")
	q.sent = r.Counter(name+"/sent", "items", "items sent downstream")
	q.refused = r.Counter(name+"/refused", "items", "items refused for lack of room")
	q.occupancy.Set(int64(q.used))
	q.creditGauge.Set(int64(q.credits))
}

// Config returns the queue's configuration.
func (q *CreditQueue[T]) Config() CreditQueueConfig { return q.cfg }

// Units returns the size of a packet of bytes in the queue's units.
func (q *CreditQueue[T]) Units(bytes uint32) uint64 {
	if c := q.cfg.CellBytes; c > 0 {
		return (uint64(bytes) + uint64(c) - 1) / uint64(c)
	}
	return uint64(bytes)
}

// Len returns the number of items queued.
func (q *CreditQueue[T]) Len() int { return q.n }

// Used returns the units held.
func (q *CreditQueue[T]) Used() uint64 { return q.used }

// Credits returns the credits held toward downstream.
func (q *CreditQueue[T]) Credits() uint64 { return q.credits }

// CanPush reports whether a packet of bytes fits in the queue's buffer.
func (q *CreditQueue[T]) CanPush(bytes uint32) bool {
	return q.cfg.Capacity == 0 || q.used+q.Units(bytes) <= q.cfg.Capacity
}

// Push appends item of the given size and reports whether it fitted; a
// refused item is counted and not queued.
func (q *CreditQueue[T]) Push(item T, bytes uint32) bool {
	if !q.CanPush(bytes) {
		if q.refused != nil {
			q.refused.Inc()
		}
		return false
	}
	if q.n == len(q.ring) {
		nr := make([]creditEntry[T], 2*len(q.ring))
		for i := 0; i < q.n; i++ {
			nr[i] = q.ring[(q.head+i)%len(q.ring)]
		}
		q.ring, q.head = nr, 0
	}
	q.ring[(q.head+q.n)%len(q.ring)] = creditEntry[T]{item, bytes}
	q.n++
	q.used += q.Units(bytes)
	if q.pushed != nil {
		q.pushed.Inc()
		q.occupancy.Set(int64(q.used))
	}
	return true
}

// Head returns the oldest item and its size in bytes.
func (q *CreditQueue[T]) Head() (T, uint32, bool) {
	if q.n == 0 {
		var zero T
		return zero, 0, false
	}
	e := q.ring[q.head]
	return e.item, e.bytes, true
}

// CanSend reports whether the head may leave: the queue is not empty and
// the credits cover the head's size (always, without flow control).
func (q *CreditQueue[T]) CanSend() bool {
	if q.n == 0 {
		return false
	}
	return q.cfg.Credits == 0 || q.credits >= q.Units(q.ring[q.head].bytes)
}

// Pop sends the head downstream, spending its credits; it returns false
// and changes nothing when CanSend is false.
func (q *CreditQueue[T]) Pop() (T, uint32, bool) {
	if !q.CanSend() {
		var zero T
		return zero, 0, false
	}
	item, bytes := q.take()
	if q.cfg.Credits > 0 {
		q.credits -= q.Units(bytes)
	}
	if q.sent != nil {
		q.sent.Inc()
		q.creditGauge.Set(int64(q.credits))
	}
	return item, bytes, true
}

// Discard removes the head without sending it (a drop or a trim decided
// here): no credits are spent.
func (q *CreditQueue[T]) Discard() (T, uint32, bool) {
	if q.n == 0 {
		var zero T
		return zero, 0, false
	}
	item, bytes := q.take()
	return item, bytes, true
}

func (q *CreditQueue[T]) take() (T, uint32) {
	e := q.ring[q.head]
	q.ring[q.head] = creditEntry[T]{}
	q.head = (q.head + 1) % len(q.ring)
	q.n--
	q.used -= q.Units(e.bytes)
	if q.occupancy != nil {
		q.occupancy.Set(int64(q.used))
	}
	return e.item, e.bytes
}

// Return takes back units of credit that the downstream buffer freed.
// Returning more than was spent is a broken invariant and panics.
func (q *CreditQueue[T]) Return(units uint64) {
	if q.credits+units > q.cfg.Credits {
		panic(fmt.Sprintf("pipeline: credit queue: %d credits returned with %d of %d held", units, q.credits, q.cfg.Credits))
	}
	q.credits += units
	if q.creditGauge != nil {
		q.creditGauge.Set(int64(q.credits))
	}
}
