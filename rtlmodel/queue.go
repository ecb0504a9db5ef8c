package rtlmodel

// queue is a growable ring buffer; it allocates only when it grows.
type queue[T any] struct {
	buf  []T
	head int
	n    int
}

func newQueue[T any](capacity int) queue[T] {
	return queue[T]{buf: make([]T, max(capacity, 4))}
}

func (q *queue[T]) len() int { return q.n }

func (q *queue[T]) push(v T) {
	if q.n == len(q.buf) {
		nb := make([]T, 2*len(q.buf))
		for i := 0; i < q.n; i++ {
			nb[i] = q.buf[(q.head+i)%len(q.buf)]
		}
		q.buf, q.head = nb, 0
	}
	q.buf[(q.head+q.n)%len(q.buf)] = v
	q.n++
}

func (q *queue[T]) front() *T { return &q.buf[q.head] }

func (q *queue[T]) at(i int) *T { return &q.buf[(q.head+i)%len(q.buf)] }

func (q *queue[T]) pop() T {
	v := q.buf[q.head]
	var zero T
	q.buf[q.head] = zero
	q.head = (q.head + 1) % len(q.buf)
	q.n--
	return v
}
