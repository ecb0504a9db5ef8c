package rtlmodel

// queue is a growable ring buffer with a power-of-two capacity; it
// allocates only when it grows.
type queue[T any] struct {
	buf  []T
	mask int
	head int
	n    int
}

func newQueue[T any](capacity int) queue[T] {
	c := 4
	for c < capacity {
		c *= 2
	}
	return queue[T]{buf: make([]T, c), mask: c - 1}
}

func (q *queue[T]) len() int { return q.n }

func (q *queue[T]) push(v T) {
	if q.n == len(q.buf) {
		nb := make([]T, 2*len(q.buf))
		for i := 0; i < q.n; i++ {
			nb[i] = q.buf[(q.head+i)&q.mask]
		}
		q.buf, q.head, q.mask = nb, 0, len(nb)-1
	}
	q.buf[(q.head+q.n)&q.mask] = v
	q.n++
}

func (q *queue[T]) front() *T { return &q.buf[q.head] }

func (q *queue[T]) pop() T {
	v := q.buf[q.head]
	var zero T
	q.buf[q.head] = zero
	q.head = (q.head + 1) & q.mask
	q.n--
	return v
}
