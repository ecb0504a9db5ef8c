package pipeline

import "fmt"

// Arbiter chooses one of N requesters. Arbiters are deterministic state
// machines that allocate nothing per decision.
//
// Pick returns the requester that would be granted, without changing any
// state (calling it again gives the same answer); Accept records that
// requester i was granted, which is when the priority state moves (a
// separable allocator picks in several arbiters and accepts in some).
// Grant is Pick followed by Accept of the winner. Requests are a Bits
// sized for N requesters (NewBits(N)), filled bit by bit with Set or Put,
// from a bitmask with LoadMask or from a slice of bools with LoadBools.
// Pick and Grant return -1 when nothing is requested, and then no state
// changes.
type Arbiter interface {
	// Size returns the number of requesters N.
	Size() int
	// Pick returns the requester that would win, or -1, without changing state.
	Pick(req Bits) int
	// Accept moves the priority state as if requester i was granted.
	Accept(i int)
	// Grant picks a winner, accepts it and returns it (-1: no request).
	Grant(req Bits) int
	// Reset returns the arbiter to its initial state.
	Reset()
}

func checkSize(kind string, n int) {
	if n < 1 {
		panic(fmt.Sprintf("pipeline: %s arbiter over %d requesters", kind, n))
	}
}

// RoundRobin grants the first requester at or after its pointer, then moves
// the pointer just past the winner; with no request the pointer stays.
// Every requester that keeps asking is granted within N decisions.
type RoundRobin struct {
	n   int
	ptr int
}

// NewRoundRobin returns a round-robin arbiter over n >= 1 requesters with
// requester 0 first in line.
func NewRoundRobin(n int) *RoundRobin {
	checkSize("round-robin", n)
	return &RoundRobin{n: n}
}

// Size returns the number of requesters.
func (a *RoundRobin) Size() int { return a.n }

// Pointer returns the requester first in line.
func (a *RoundRobin) Pointer() int { return a.ptr }

// Pick returns the first requester at or after the pointer, or -1.
func (a *RoundRobin) Pick(req Bits) int { return req.NextFrom(a.ptr, a.n) }

// Accept moves the pointer just past requester i.
func (a *RoundRobin) Accept(i int) {
	a.ptr = i + 1
	if a.ptr == a.n {
		a.ptr = 0
	}
}

// Grant picks and accepts the winner.
func (a *RoundRobin) Grant(req Bits) int {
	i := a.Pick(req)
	if i >= 0 {
		a.Accept(i)
	}
	return i
}

// Reset puts requester 0 first in line.
func (a *RoundRobin) Reset() { a.ptr = 0 }
