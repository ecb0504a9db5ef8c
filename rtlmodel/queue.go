package rtlmodel

// Queue is a first-in first-out ring buffer with a power-of-two capacity,
// for a component's own bookkeeping (it is not a state element: unlike a
// FIFO, what is pushed is visible at once). It doubles when full and never
// shrinks, so once it has held its largest depth it allocates nothing
// more, where a slice used as a queue keeps allocating as it slides. The
// zero value is an empty queue.
type Queue[T any] struct {
	buf  []T
	mask int
	head int
	n    int
}

// NewQueue returns a queue with room for capacity items before it grows.
func NewQueue[T any](capacity int) Queue[T] {
	c := 4
	for c < capacity {
		c *= 2
	}
	return Queue[T]{buf: make([]T, c), mask: c - 1}
}

// Len returns the number of items queued.
func (q *Queue[T]) Len() int { return q.n }

// Push appends v at the back.
func (q *Queue[T]) Push(v T) {
	if q.n == len(q.buf) {
		nb := make([]T, max(4, 2*len(q.buf)))
		for i := 0; i < q.n; i++ {
			nb[i] = q.buf[(q.head+i)&q.mask]
		}
		q.buf, q.head, q.mask = nb, 0, len(nb)-1
	}
	q.buf[(q.head+q.n)&q.mask] = v
	q.n++
}

// Front returns the oldest item; the queue must not be empty.
func (q *Queue[T]) Front() *T { return &q.buf[q.head] }

// Back returns the newest item; the queue must not be empty.
func (q *Queue[T]) Back() *T { return &q.buf[(q.head+q.n-1)&q.mask] }

// Pop removes and returns the oldest item; the queue must not be empty.
func (q *Queue[T]) Pop() T {
	v := q.buf[q.head]
	var zero T
	q.buf[q.head] = zero
	q.head = (q.head + 1) & q.mask
	q.n--
	return v
}
