package rtlmodel

import (
	"math/rand/v2"
	"testing"
)

// The queue gives items back in the order they went in across growth and
// wrap-around, checked against a slice under random pushes and pops; a
// queue cycling below its largest depth allocates nothing.
func TestQueueIsFIFO(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var q Queue[int]
	var ref []int
	next := 0
	for step := 0; step < 100000; step++ {
		if r.IntN(3) > 0 || len(ref) == 0 {
			q.Push(next)
			ref = append(ref, next)
			next++
		} else {
			if got := q.Pop(); got != ref[0] {
				t.Fatalf("step %d: popped %d, want %d", step, got, ref[0])
			}
			ref = ref[1:]
		}
		if q.Len() != len(ref) {
			t.Fatalf("step %d: length %d, want %d", step, q.Len(), len(ref))
		}
		if len(ref) > 0 && *q.Front() != ref[0] {
			t.Fatalf("step %d: front %d, want %d", step, *q.Front(), ref[0])
		}
	}
	var c Queue[int]
	for i := 0; i < 100; i++ {
		c.Push(i)
	}
	for c.Len() > 0 {
		c.Pop()
	}
	if a := testing.AllocsPerRun(100, func() {
		for i := 0; i < 100; i++ {
			c.Push(i)
		}
		for c.Len() > 0 {
			c.Pop()
		}
	}); a != 0 {
		t.Fatalf("%v allocations per cycle below the largest depth", a)
	}
}
