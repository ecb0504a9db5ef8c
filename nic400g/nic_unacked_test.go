package nic400g

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// The unacknowledged list keeps the packets of a reference slice in order
// under random sends and cumulative ACKs, and once it has held the largest
// window it allocates nothing: sends only move the window back to the
// start of its array.
func TestUnackedListFollowsSendsAndAcks(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var q qpState
	ref := make([]sentPkt, 0, 1<<17) // room for every send: the reference never allocates
	psn := uint32(0)
	run := func(steps int) {
		for step := 0; step < steps; step++ {
			if r.IntN(2) == 0 && len(ref) < 64 {
				p := sentPkt{psn: psn, payload: uint32(step)}
				psn++
				q.pushUnacked(p)
				ref = append(ref, p)
			} else if len(ref) > 0 {
				k := r.IntN(len(ref) + 1)
				q.dropAcked(k)
				ref = ref[k:]
			}
			if !slices.Equal(q.unacked, ref) {
				t.Fatalf("step %d: list %v, want %v", step, q.unacked, ref)
			}
		}
	}
	run(50000)
	if allocs := testing.AllocsPerRun(1, func() { run(50000) }); allocs > 0 {
		t.Errorf("%v allocations in 50,000 steps after the warm-up", allocs)
	}
}
