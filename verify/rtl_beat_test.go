package verify

import (
	"math/rand/v2"
	"testing"

	"github.com/fabricmodel/fabricmodel/switchasic"
	"github.com/stretchr/testify/require"
)

// beatCycle is the cycle at which a top built on vec_source presents input
// k: one input per cycle from firstActiveCycle, one idle cycle after every
// four.
func beatCycle(k int) uint64 { return uint64(firstActiveCycle + k + k/4) }

// checkClean runs a block's top under iverilog on the given inputs and
// requires both the testbench's own check and verify to pass.
func checkClean(t *testing.T, block, top string, defines []string, params map[string]uint64, inputs []Txn) *Result {
	t.Helper()
	v, dir := writeVectors(t, block, params, inputs)
	vcdPath, out := runIverilog(t, block, top, defines, dir)
	require.Equal(t, 0, tbErrors(t, out), "the testbench's own check against expected.hex: %s", out)
	res, err := RunFile(loadRTLMap(t, block), vcdPath)
	require.NoError(t, err)
	require.True(t, res.Passed(), res.Summary())
	require.EqualValues(t, len(inputs), res.Inputs)
	require.EqualValues(t, len(v.Outputs), res.Matched)
	t.Log(res.Summary())
	return res
}

// checkBug runs a block's top with a bug switch and returns the divergence.
func checkBug(t *testing.T, block, top string, defines []string, params map[string]uint64, inputs []Txn) *Result {
	t.Helper()
	_, dir := writeVectors(t, block, params, inputs)
	vcdPath, _ := runIverilog(t, block, top, defines, dir)
	res, err := RunFile(loadRTLMap(t, block), vcdPath)
	require.NoError(t, err)
	require.False(t, res.Passed(), "the bug went unnoticed")
	t.Log(res.Summary())
	return res
}

// toeplitzInputs starts with tuples whose ports read the same in either
// byte order, so BUG_PORTSWAP first shows on input 6.
func toeplitzInputs() []Txn {
	r := rand.New(rand.NewPCG(3, 4))
	var in []Txn
	for i := 0; i < 200; i++ {
		sp, dp := uint64(r.IntN(1<<16)), uint64(r.IntN(1<<16))
		if i < 6 {
			b := uint64(r.IntN(256))
			sp, dp = b<<8|b, 0x1212
		}
		if i == 6 {
			sp, dp = 0xc001, 4791
		}
		in = append(in, beat(uint64(r.Uint32()), uint64(r.Uint32()), sp, dp))
	}
	return in
}

func TestRTLToeplitzClean(t *testing.T) {
	checkClean(t, "toeplitz", "toeplitz_top", nil, nil, toeplitzInputs())
}

func TestRTLToeplitzBugPortSwap(t *testing.T) {
	in := toeplitzInputs()
	first := -1
	for i, x := range in {
		if x.Fields[2]>>8 != x.Fields[2]&0xff || x.Fields[3]>>8 != x.Fields[3]&0xff {
			first = i
			break
		}
	}
	require.Equal(t, 6, first)
	res := checkBug(t, "toeplitz", "toeplitz_top", []string{"BUG_PORTSWAP"}, nil, in)
	d := res.Divergence
	require.Equal(t, KindMismatch, d.Kind)
	require.Equal(t, beatCycle(first)+2, d.Cycle) // two pipeline stages
	require.Equal(t, "tb.top.dut.hash", d.Signal)
	require.EqualValues(t, first, res.Matched)
}

// wredInputs draws depths below Kmax, with input 9 exactly at Kmax.
func wredInputs() []Txn {
	r := rand.New(rand.NewPCG(5, 6))
	var in []Txn
	for i := 0; i < 300; i++ {
		d := uint64(r.IntN(6_400_000))
		switch {
		case i == 9:
			d = 6_400_000
		case i > 9 && i%7 == 0:
			d = 6_400_000 + uint64(r.IntN(3))
		case i%5 == 0:
			d = 1_600_000 + uint64(r.IntN(2))
		}
		in = append(in, beat(d))
	}
	return in
}

func TestRTLWREDClean(t *testing.T) {
	checkClean(t, "wred", "wred_top", nil, nil, wredInputs())
}

func TestRTLWREDBugKmax(t *testing.T) {
	in := wredInputs()
	first := -1
	for i, x := range in {
		if x.Fields[0] == 6_400_000 {
			first = i
			break
		}
	}
	require.Equal(t, 9, first)
	// At Kmax the buggy RTL uses the linear probability (Pmax), so prob
	// differs; mark differs too unless this packet's draw is below Pmax.
	l := switchasic.NewLFSR32(1)
	var draw uint16
	for range first + 1 {
		draw = l.Draw16()
	}
	field := "prob"
	if draw >= 13107 {
		field = "mark"
	}
	res := checkBug(t, "wred", "wred_top", []string{"BUG_KMAX"}, nil, in)
	d := res.Divergence
	require.Equal(t, KindMismatch, d.Kind)
	require.Equal(t, beatCycle(first)+1, d.Cycle)
	require.Equal(t, field, d.Field)
	require.Equal(t, "tb.top.dut."+field, d.Signal)
}

// psnInputs runs in order from 0xfffff0 to 0xfffffd, then sends 0x000001
// (out of order across the wrap: input 14), fills the gap, and goes on
// with the block's random stimulus.
func psnInputs() []Txn {
	var in []Txn
	for p := uint64(0xfffff0); p <= 0xfffffd; p++ {
		in = append(in, beat(p))
	}
	in = append(in, beat(1), beat(0xfffffe), beat(0xffffff), beat(0), beat(0xfffff8))
	r := rand.New(rand.NewPCG(9, 10))
	return append(in, psnStimulus(r, Params{"start": 2, "window": 64}, 300)...)
}

var psnDefines = []string{"START=24'hfffff0"}

func TestRTLPSNClean(t *testing.T) {
	checkClean(t, "psn", "psn_top", psnDefines, map[string]uint64{"start": 0xfffff0}, psnInputs())
}

func TestRTLPSNBugWrap(t *testing.T) {
	in := psnInputs()
	// Fourteen in-order PSNs leave epsn at 0xfffffe; PSN 1 is 3 ahead of
	// it modulo 2^24 but below it as a plain number.
	first := 14
	require.EqualValues(t, 1, in[first].Fields[0])
	res := checkBug(t, "psn", "psn_top", append([]string{"BUG_WRAP"}, psnDefines...), map[string]uint64{"start": 0xfffff0}, in)
	d := res.Divergence
	require.Equal(t, KindMismatch, d.Kind)
	require.Equal(t, beatCycle(first)+1, d.Cycle)
	require.Equal(t, "result", d.Field)
	require.Equal(t, "tb.top.dut.result", d.Signal)
	require.Equal(t, "0x1", d.Expected) // out of order
	require.Equal(t, "0x2", d.Got)      // duplicate
}
