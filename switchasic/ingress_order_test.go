package switchasic

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/pipeline"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/serdes"
)

// TestIngressPassOrder checks the pipe's jumps from ready input to ready
// input against a scan of every position of a pass, position k being input
// rr+k (mod n) with rr moved past each input taken: the same inputs in the
// same order, for any ready mask, pointer and budget, with inputs found
// empty (their ready bit cleared) along the way.
func TestIngressPassOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 5000; trial++ {
		n := 1 + rng.IntN(140)
		ready := pipeline.NewBits(n)
		holds := make([]bool, n) // a ready input may turn out empty
		for i := 0; i < n; i++ {
			if rng.IntN(3) == 0 {
				ready.Set(i)
				holds[i] = rng.IntN(4) != 0
			}
		}
		rr, budget := rng.IntN(n), 1+rng.IntN(6)

		// the scan of every position
		wantReady := append(pipeline.Bits(nil), ready...)
		want, wantRR, wb := []int{}, rr, budget
		for k := 0; k < n && wb > 0; k++ {
			i := (wantRR + k) % n
			if !wantReady.Has(i) {
				continue
			}
			want = append(want, i)
			if !holds[i] {
				wantReady.Clear(i)
				continue
			}
			wb--
			wantRR = (i + 1) % n
		}

		// the jumps, as Eval makes them
		ip := &ingressPipe{ready: ready, rr: rr}
		ip.in = make([]*rtlmodel.Link[serdes.RxFrame[*packet.Desc]], n)
		got, gb := []int{}, budget
		for k := 0; k < n && gb > 0; k++ {
			var i int
			i, k = ip.nextReady(k)
			if i < 0 {
				break
			}
			got = append(got, i)
			if !holds[i] {
				ip.ready.Clear(i)
				continue
			}
			gb--
			ip.rr = (i + 1) % n
		}
		require.Equal(t, want, got, "n %d rr %d budget %d", n, rr, budget)
		require.Equal(t, wantRR, ip.rr)
		require.Equal(t, wantReady, ip.ready)
	}
}
