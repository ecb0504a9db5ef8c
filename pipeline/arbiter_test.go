package pipeline

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

func mustWRR(t testing.TB, w ...uint32) *WeightedRoundRobin {
	a, err := NewWeightedRoundRobin(w)
	require.NoError(t, err)
	return a
}

// grants runs a sequence of request masks through an arbiter.
func grants(a Arbiter, masks []uint64) []int {
	req := NewBits(a.Size())
	out := make([]int, len(masks))
	for i, m := range masks {
		req.LoadMask(m)
		out[i] = a.Grant(req)
	}
	return out
}

func TestArbiterKnownSequences(t *testing.T) {
	all4 := []uint64{0xf, 0xf, 0xf, 0xf, 0xf, 0xf}
	tests := []struct {
		name  string
		arb   Arbiter
		masks []uint64
		want  []int
	}{
		{"rr all", NewRoundRobin(4), all4, []int{0, 1, 2, 3, 0, 1}},
		{"rr sparse", NewRoundRobin(4), []uint64{0b1010, 0b1010, 0b1010, 0, 0b0001, 0b1001},
			[]int{1, 3, 1, -1, 0, 3}},
		{"rr pointer holds without request", NewRoundRobin(3), []uint64{0b010, 0, 0, 0b111},
			[]int{1, -1, -1, 2}},
		{"wrr 3:1:2", mustWRR(t, 3, 1, 2), []uint64{7, 7, 7, 7, 7, 7, 7, 7}, []int{0, 0, 0, 1, 2, 2, 0, 0}},
		{"wrr turn lost when not requesting", mustWRR(t, 3, 1, 2), []uint64{7, 0b110, 7, 7},
			[]int{0, 1, 2, 2}},
		{"wrr single requester", mustWRR(t, 2, 5), []uint64{1, 1, 1, 2, 3}, []int{0, 0, 0, 1, 1}},
		{"matrix all", NewMatrix(4), all4, []int{0, 1, 2, 3, 0, 1}},
		{"matrix least recently granted", NewMatrix(4), []uint64{0b0100, 0b1111, 0b1111, 0b1111, 0b0110},
			[]int{2, 0, 1, 3, 2}},
		{"matrix no request", NewMatrix(3), []uint64{0, 0b100, 0b101}, []int{-1, 2, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, grants(tc.arb, tc.masks))
			tc.arb.Reset()
			require.Equal(t, tc.want, grants(tc.arb, tc.masks), "same sequence after Reset")
		})
	}
}

func TestArbiterPickChangesNothing(t *testing.T) {
	for _, a := range []Arbiter{NewRoundRobin(5), mustWRR(t, 2, 1, 3, 1, 1), NewMatrix(5)} {
		req := NewBits(5)
		rng := rtlmodel.NewRNG(3, "pick")
		for range 1000 {
			req.LoadMask(rng.Uint64() & 0x1f)
			p := a.Pick(req)
			require.Equal(t, p, a.Pick(req))
			require.Equal(t, p, a.Grant(req))
		}
	}
}

// TestArbiterFairness: with every requester asking all the time, each gets
// exactly its share; with random requests, a requester that keeps asking
// waits no longer than the arbiter's bound.
func TestArbiterFairness(t *testing.T) {
	tests := []struct {
		name    string
		arb     Arbiter
		share   []int // grants per requester per round when all ask
		maxWait int   // decisions a continuous requester can lose
	}{
		{"rr 7", NewRoundRobin(7), []int{1, 1, 1, 1, 1, 1, 1}, 6},
		{"rr 100", NewRoundRobin(100), nil, 99},
		{"wrr", mustWRR(t, 4, 1, 2, 8, 1), []int{4, 1, 2, 8, 1}, 16 - 1},
		{"matrix 7", NewMatrix(7), []int{1, 1, 1, 1, 1, 1, 1}, 6},
		{"matrix 70", NewMatrix(70), nil, 69},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n := tc.arb.Size()
			req := NewBits(n)
			if tc.share != nil {
				for i := range n {
					req.Set(i)
				}
				round := 0
				for _, s := range tc.share {
					round += s
				}
				got := make([]int, n)
				const rounds = 1000
				for range rounds * round {
					got[tc.arb.Grant(req)]++
				}
				for i, s := range tc.share {
					require.Equal(t, rounds*s, got[i], "requester %d", i)
				}
			}
			tc.arb.Reset()
			rng := rtlmodel.NewRNG(11, tc.name)
			waiting := make([]int, n) // decisions lost while asking; -1: not asking
			for i := range waiting {
				waiting[i] = -1
			}
			worst := 0
			for range 20000 {
				for i := range n {
					if waiting[i] < 0 && rng.Intn(3) == 0 {
						waiting[i] = 0
					}
					req.Put(i, waiting[i] >= 0)
				}
				g := tc.arb.Grant(req)
				if req.Any() != (g >= 0) {
					t.Fatalf("grant %d for %d requests", g, req.Count())
				}
				for i := range n {
					if i == g {
						waiting[i] = -1
					} else if waiting[i] >= 0 {
						waiting[i]++
						worst = max(worst, waiting[i])
					}
				}
			}
			require.LessOrEqual(t, worst, tc.maxWait, "a requester waited too long")
		})
	}
}

// TestMatrixIsLeastRecentlyGranted checks the matrix arbiter against a
// brute-force least-recently-granted model, across word boundaries.
func TestMatrixIsLeastRecentlyGranted(t *testing.T) {
	for _, n := range []int{1, 2, 5, 63, 64, 65, 130} {
		a := NewMatrix(n)
		last := make([]int, n) // time of the last grant; reset order by index
		for i := range last {
			last[i] = i - n
		}
		req := NewBits(n)
		rng := rtlmodel.NewRNG(5, "lrg")
		for step := range 3000 {
			req.Reset()
			want := -1
			for i := range n {
				if rng.Intn(4) == 0 {
					req.Set(i)
					if want < 0 || last[i] < last[want] {
						want = i
					}
				}
			}
			require.Equal(t, want, a.Grant(req), "n=%d step %d", n, step)
			if want >= 0 {
				last[want] = step
			}
		}
	}
}

func TestArbiterConstruction(t *testing.T) {
	_, err := NewWeightedRoundRobin([]uint32{1, 0})
	require.ErrorContains(t, err, "requester 1 has weight 0")
	_, err = NewWeightedRoundRobin(nil)
	require.Error(t, err)
	require.Panics(t, func() { NewRoundRobin(0) })
	require.Panics(t, func() { NewMatrix(0) })
	m := NewMatrix(3)
	require.True(t, m.Before(0, 2))
	m.Accept(0)
	require.True(t, m.Before(2, 0))
	require.False(t, m.Before(1, 1))
}

func TestBits(t *testing.T) {
	b := NewBits(130)
	require.Len(t, b, 3)
	require.False(t, b.Any())
	b.Set(3)
	b.Set(64)
	b.Set(129)
	require.Equal(t, 3, b.Count())
	require.Equal(t, 64, b.NextFrom(4, 130))
	require.Equal(t, 129, b.NextFrom(65, 130))
	require.Equal(t, 3, b.NextFrom(65, 129), "bit 129 lies outside 129 requesters: wrap to 3")
	require.Equal(t, 64, b.First(4, 130))
	require.Equal(t, 3, b.First(3, 4))
	require.Equal(t, -1, b.First(4, 64), "64 lies outside [4, 64)")
	require.Equal(t, -1, b.First(65, 129))
	require.Equal(t, -1, b.First(5, 5))
	b.Clear(64)
	require.False(t, b.Has(64))
	b.LoadBools([]bool{false, true})
	require.Equal(t, 1, b.NextFrom(0, 130))
	require.Equal(t, 1, b.Count())
	b.Reset()
	require.Equal(t, -1, b.NextFrom(0, 130))
}
