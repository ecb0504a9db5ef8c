package pipeline

import "fmt"

// WeightedRoundRobin is a round-robin arbiter in which requester i, once it
// has the turn, keeps it for up to Weight(i) consecutive grants while it
// keeps requesting; then the turn passes to the next requester. With every
// requester asking, requester i receives Weight(i) of every sum-of-weights
// grants, in bursts, in index order. A requester that stops asking loses
// the rest of its turn.
type WeightedRoundRobin struct {
	w    []uint32
	ptr  int    // requester holding the turn (first in line)
	used uint32 // grants it has had in this turn
}

// NewWeightedRoundRobin returns an arbiter over len(weights) requesters.
// Every weight must be at least 1.
func NewWeightedRoundRobin(weights []uint32) (*WeightedRoundRobin, error) {
	if len(weights) == 0 {
		return nil, fmt.Errorf("weighted round robin: no requesters")
	}
	for i, w := range weights {
		if w == 0 {
			return nil, fmt.Errorf("weighted round robin: requester %d has weight 0; weights start at 1", i)
		}
	}
	return &WeightedRoundRobin{w: append([]uint32(nil), weights...)}, nil
}

// Size returns the number of requesters.
func (a *WeightedRoundRobin) Size() int { return len(a.w) }

// Weight returns requester i's weight (grants per turn).
func (a *WeightedRoundRobin) Weight(i int) uint32 { return a.w[i] }

// Pick returns the turn holder if it requests, else the next requester in
// round-robin order, or -1.
func (a *WeightedRoundRobin) Pick(req Bits) int { return req.NextFrom(a.ptr, len(a.w)) }

// Accept counts a grant to i: the turn moves to i if it was elsewhere, and
// past i when i has used its weight.
func (a *WeightedRoundRobin) Accept(i int) {
	if i != a.ptr {
		a.ptr, a.used = i, 0
	}
	a.used++
	if a.used >= a.w[i] {
		a.used = 0
		a.ptr = i + 1
		if a.ptr == len(a.w) {
			a.ptr = 0
		}
	}
}

// Grant picks and accepts the winner.
func (a *WeightedRoundRobin) Grant(req Bits) int {
	i := a.Pick(req)
	if i >= 0 {
		a.Accept(i)
	}
	return i
}

// Reset gives the turn to requester 0 with none of its grants used.
func (a *WeightedRoundRobin) Reset() { a.ptr, a.used = 0, 0 }
