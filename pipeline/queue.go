package pipeline

// Queue is a first-in first-out ring buffer. It doubles when full and
// never shrinks, so once it has held its largest depth it allocates
// nothing more; a slice used as a queue (append at the back, advance an
// index at the front) keeps allocating as it slides.
type Queue[T any] struct {
	buf  []T
	head int
	n    int
}

// Len returns the number of items queued.
func (q *Queue[T]) Len() int { return q.n }

// Push appends v at the back.
func (q *Queue[T]) Push(v T) {
	if q.n == len(q.buf) {
		nb := make([]T, max(8, 2*len(q.buf)))
		for i := 0; i < q.n; i++ {
			nb[i] = q.buf[(q.head+i)&(len(q.buf)-1)]
		}
		q.buf, q.head = nb, 0
	}
	q.buf[(q.head+q.n)&(len(q.buf)-1)] = v
	q.n++
}

// Front returns the oldest item; the queue must not be empty.
func (q *Queue[T]) Front() *T { return &q.buf[q.head] }

// Pop removes and returns the oldest item; the queue must not be empty.
func (q *Queue[T]) Pop() T {
	v := q.buf[q.head]
	var zero T
	q.buf[q.head] = zero
	q.head = (q.head + 1) & (len(q.buf) - 1)
	q.n--
	return v
}
