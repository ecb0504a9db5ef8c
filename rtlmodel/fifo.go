package rtlmodel

import "fmt"

// FIFORule is the same-cycle rule a FIFO follows.
type FIFORule uint8

const (
	// Normal: an enqueue becomes visible next cycle; a dequeue frees its
	// slot next cycle.
	Normal FIFORule = iota
	// Pipe: a dequeue this cycle frees a slot for an enqueue this cycle
	// (dequeue first, then enqueue).
	Pipe
	// Bypass: an item enqueued this cycle can be dequeued this cycle
	// (enqueue first, then dequeue).
	Bypass
)

// String names the rule.
func (r FIFORule) String() string {
	switch r {
	case Normal:
		return "normal"
	case Pipe:
		return "pipe"
	case Bypass:
		return "bypass"
	}
	return fmt.Sprintf("rule(%d)", uint8(r))
}

// FIFO is a bounded queue inside one component with two-phase semantics:
// Enq and Deq in an edge take effect at the edge's commit, as the rule says.
type FIFO[T any] struct {
	buf   []T
	head  int // index of the oldest committed item
	count int // committed items
	enq   int // items enqueued this edge (stored after the committed ones)
	deq   int // items dequeued this edge
	rule  FIFORule
	dirty bool
	id    int
	name  string
	owner *Handle
	maxOc int
}

// NewFIFO returns an empty FIFO of the given capacity (>= 1).
func NewFIFO[T any](owner *Handle, name string, capacity int, rule FIFORule) *FIFO[T] {
	if capacity < 1 {
		capacity = 1
	}
	return &FIFO[T]{buf: make([]T, capacity), rule: rule, id: owner.e.newElemID(),
		name: owner.Path() + "/" + name, owner: owner}
}

// Name returns the FIFO's hierarchical name.
func (f *FIFO[T]) Name() string { return f.name }

// Cap returns the capacity.
func (f *FIFO[T]) Cap() int { return len(f.buf) }

// Len returns the committed occupancy.
func (f *FIFO[T]) Len() int { return f.count }

// MaxLen returns the highest committed occupancy seen.
func (f *FIFO[T]) MaxLen() int { return f.maxOc }

// CanEnq reports whether an Enq this edge is allowed by the rule.
func (f *FIFO[T]) CanEnq() bool {
	if f.rule == Pipe {
		return f.count-f.deq+f.enq < len(f.buf)
	}
	return f.count+f.enq < len(f.buf)
}

// CanDeq reports whether a Deq this edge is allowed by the rule.
func (f *FIFO[T]) CanDeq() bool {
	if f.rule == Bypass {
		return f.deq < f.count+f.enq
	}
	return f.deq < f.count
}

// Enq appends v; it is a modelling error when CanEnq is false.
func (f *FIFO[T]) Enq(v T) {
	if !f.CanEnq() {
		f.owner.e.fail(fmt.Errorf("FIFO %s (%s, capacity %d): enqueue when full at %v",
			f.name, f.rule, len(f.buf), f.owner.e.now))
		return
	}
	f.buf[(f.head+f.count+f.enq)%len(f.buf)] = v
	f.enq++
	f.touch()
}

// Peek returns the item the next Deq would return.
func (f *FIFO[T]) Peek() (T, bool) {
	if !f.CanDeq() {
		var zero T
		return zero, false
	}
	return f.buf[(f.head+f.deq)%len(f.buf)], true
}

// Deq removes and returns the oldest item allowed by the rule.
func (f *FIFO[T]) Deq() (T, bool) {
	v, ok := f.Peek()
	if ok {
		var zero T
		f.buf[(f.head+f.deq)%len(f.buf)] = zero
		f.deq++
		f.touch()
	}
	return v, ok
}

func (f *FIFO[T]) touch() {
	if !f.dirty {
		f.dirty = true
		f.owner.e.markDirty(f)
	}
}

func (f *FIFO[T]) elemID() int { return f.id }

func (f *FIFO[T]) commit(*Engine) {
	f.head = (f.head + f.deq) % len(f.buf)
	f.count += f.enq - f.deq
	f.enq, f.deq, f.dirty = 0, 0, false
	f.maxOc = max(f.maxOc, f.count)
}
