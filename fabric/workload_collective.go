package fabric

import (
	"fmt"
	"math/bits"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// chunks splits bytes into n chunks as evenly as whole bytes allow (the
// first bytes mod n chunks one byte larger) and returns their prefix sums:
// chunk c is [sum[c], sum[c+1]).
func chunks(bytes uint64, n int) []uint64 {
	sum := make([]uint64, n+1)
	q, r := bytes/uint64(n), bytes%uint64(n)
	for c := 0; c < n; c++ {
		sum[c+1] = sum[c] + q
		if uint64(c) < r {
			sum[c+1]++
		}
	}
	return sum
}

// RingAllReduce is the ring all-reduce of bytes over ranks (ranks[i] is
// rank i's endpoint): the data is cut into N chunks; in N-1 reduce-scatter
// steps and N-1 all-gather steps, rank i sends one chunk to rank i+1
// (mod N), so each rank sends 2(N-1)/N of the data (E). Flow t·N+i is rank i's
// send in step t; for t > 0 it waits for the previous step's flow from rank
// i-1, whose data it forwards. Every flow may start at start.
func RingAllReduce(ranks []int, bytes uint64, start rtlmodel.Time) ([]Flow, error) {
	if err := checkHosts("ring all-reduce", ranks, 2); err != nil {
		return nil, err
	}
	n := len(ranks)
	if bytes < uint64(n) {
		return nil, fmt.Errorf("fabric: ring all-reduce of %d bytes over %d ranks leaves empty chunks", bytes, n)
	}
	sum := chunks(bytes, n)
	flows := make([]Flow, 0, 2*(n-1)*n)
	for t := 0; t < 2*(n-1); t++ {
		for i := 0; i < n; i++ {
			// Reduce-scatter step t sends chunk i-t; all-gather step t'
			// sends chunk i+1-t', the one rank i completed last.
			c := ((i-t)%n + n) % n
			if t >= n-1 {
				c = ((i+1-(t-(n-1)))%n + n) % n
			}
			f := Flow{ID: t*n + i, Src: ranks[i], Dst: ranks[(i+1)%n], Bytes: sum[c+1] - sum[c], Start: start}
			if t > 0 {
				f.After = []int{(t-1)*n + (i+n-1)%n}
			}
			flows = append(flows, f)
		}
	}
	return flows, nil
}

// HalvingDoublingAllReduce is the recursive halving-doubling all-reduce
// (Rabenseifner) of bytes over ranks, N a power of two: log2 N
// reduce-scatter steps in which rank i exchanges half of its current block
// with rank i XOR N/2, then N/4, ... 1, and log2 N all-gather steps back
// out (partners 1, 2, ... N/2, blocks doubling). Each rank sends 2(N-1)/N
// of the data in 2·log2 N flows (E). Flow t·N+i is rank i's send in step t;
// for t > 0 it waits for the flow rank i received in step t-1.
func HalvingDoublingAllReduce(ranks []int, bytes uint64, start rtlmodel.Time) ([]Flow, error) {
	if err := checkHosts("halving-doubling all-reduce", ranks, 2); err != nil {
		return nil, err
	}
	n := len(ranks)
	if n&(n-1) != 0 {
		return nil, fmt.Errorf("fabric: halving-doubling all-reduce needs a power-of-two number of ranks, got %d (workload.ranks %d runs it on the first %d endpoints)",
			n, 1<<(bits.Len(uint(n))-1), 1<<(bits.Len(uint(n))-1))
	}
	if bytes < uint64(n) {
		return nil, fmt.Errorf("fabric: halving-doubling all-reduce of %d bytes over %d ranks leaves empty chunks", bytes, n)
	}
	m := 0
	for 1<<m < n {
		m++
	}
	dist := make([]int, 2*m) // partner distance of each step
	for j := 0; j < m; j++ {
		dist[j] = n >> (j + 1)
		dist[m+j] = 1 << j
	}
	sum := chunks(bytes, n)
	flows := make([]Flow, 0, 2*m*n)
	for t, d := range dist {
		for i := 0; i < n; i++ {
			// Halving gives away the half holding the partner's chunks;
			// doubling hands over the block rank i has gathered so far.
			first := (i ^ d) &^ (d - 1)
			if t >= m {
				first = i &^ (d - 1)
			}
			f := Flow{ID: t*n + i, Src: ranks[i], Dst: ranks[i^d], Bytes: sum[first+d] - sum[first], Start: start}
			if t > 0 {
				f.After = []int{(t-1)*n + (i ^ dist[t-1])}
			}
			flows = append(flows, f)
		}
	}
	return flows, nil
}
