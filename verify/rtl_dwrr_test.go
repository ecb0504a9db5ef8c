package verify

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// dwrrInputs starts with a sequence where queue 0 (quantum 1500) leaves
// the round with 500 bytes of deficit and comes back behind queue 1
// (quantum 3000), inputs 0 to 9, then draws sets
// of packets no larger than the smallest quantum (64 to 1500 bytes, some
// empty) and dequeues.
func dwrrInputs() []Txn {
	in := []Txn{
		beat(DWRRSetHead, 0, 1000), // 0
		beat(DWRRSetHead, 1, 1000), // 1
		beat(DWRRDequeue, 0, 0),    // 2: q0 (1500-1000 = 500 left)
		beat(DWRRSetHead, 0, 0),    // 3: q0 leaves the round, deficit 0
		beat(DWRRSetHead, 0, 1000), // 4: q0 back, behind q1
		beat(DWRRDequeue, 0, 0),    // 5: q1 (3000 -> 2000)
		beat(DWRRDequeue, 0, 0),    // 6: q1 (1000)
		beat(DWRRDequeue, 0, 0),    // 7: q1 (0)
		beat(DWRRDequeue, 0, 0),    // 8: q1 spent, q0 (1500 -> 500)
		beat(DWRRDequeue, 0, 0),    // 9: q0 spent, q1 (3000 -> 2000)
	}
	r := rand.New(rand.NewPCG(13, 14))
	for len(in) < 3000 {
		if r.IntN(3) == 0 {
			b := uint64(64 + r.IntN(1500-64+1))
			if r.IntN(4) == 0 {
				b = 0
			}
			in = append(in, beat(DWRRSetHead, uint64(r.IntN(4)), b))
		} else {
			in = append(in, beat(DWRRDequeue, 0, 0))
		}
	}
	return in
}

func TestRTLDWRRClean(t *testing.T) {
	checkClean(t, "dwrr", "dwrr_top", nil, nil, dwrrInputs())
}

func TestRTLDWRRBugDeficit(t *testing.T) {
	// With the deficit kept, q0 returns at input 4 with 500 banked bytes:
	// at input 8 it takes 500+1500 and keeps 1000 after its packet, so at
	// input 9 it still fits a 1000-byte packet and sends again where the
	// model rotates to q1. Inputs 2, 5, 6, 7, 8 and 9 are dequeues: the
	// sixth grant diverges.
	in := dwrrInputs()
	res := checkBug(t, "dwrr", "dwrr_top", []string{"BUG_DEFICIT"}, nil, in)
	d := res.Divergence
	require.Equal(t, KindMismatch, d.Kind)
	require.Equal(t, beatCycle(9)+1, d.Cycle)
	require.Equal(t, "queue", d.Field)
	require.Equal(t, "tb.top.dut.grant", d.Signal)
	require.Equal(t, "0x1", d.Expected)
	require.Equal(t, "0x0", d.Got)
	require.EqualValues(t, 5, res.Matched)
}
