package verify

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// firstActiveCycle is the cycle at which the tops' first input is sampled:
// reset holds over edges 0 to 3, the source loads at edge 4 and the block
// samples the load at edge 5.
const firstActiveCycle = 5

// fcsFrames draws frames whose first few lengths are multiples of 8, so
// that BUG_TKEEP (tkeep ignored on the last beat) first shows on a known
// frame.
func fcsFrames(n int) []Txn {
	r := rand.New(rand.NewPCG(7, 8))
	lens := []int{64, 72, 128, 61, 64, 100}
	var out []Txn
	for i := 0; i < n; i++ {
		l := 60 + r.IntN(140)
		if i < len(lens) {
			l = lens[i]
		}
		b := make([]byte, l)
		for j := range b {
			b[j] = byte(r.Uint32())
		}
		out = append(out, Txn{Data: b})
	}
	return out
}

// fcsSchedule returns, for each frame, the cycle at which fcs_top presents
// its last beat: one beat per cycle, one idle cycle after each frame.
func fcsSchedule(frames []Txn) []uint64 {
	c := uint64(firstActiveCycle)
	out := make([]uint64, len(frames))
	for i, f := range frames {
		beats := uint64(max(1, (len(f.Data)+VectorBeatBytes-1)/VectorBeatBytes))
		out[i] = c + beats - 1
		c += beats + 1
	}
	return out
}

func loadRTLMap(t *testing.T, block string) *Map {
	t.Helper()
	m, err := LoadMapFile(filepath.Join(rtlDir, block, "map.yaml"))
	require.NoError(t, err)
	return m
}

func TestRTLFCSClean(t *testing.T) {
	frames := fcsFrames(40)
	_, dir := writeVectors(t, "fcs", nil, frames)
	vcdPath, out := runIverilog(t, "fcs", "fcs_top", nil, dir)
	require.Equal(t, 0, tbErrors(t, out), "the testbench's own check against expected.hex: %s", out)
	res, err := RunFile(loadRTLMap(t, "fcs"), vcdPath)
	require.NoError(t, err)
	require.True(t, res.Passed(), res.Summary())
	require.EqualValues(t, 40, res.Inputs)
	require.EqualValues(t, 40, res.Matched)
	require.EqualValues(t, 4, res.ResetCycles)
	t.Log(res.Summary())
}

func TestRTLFCSBugTKeep(t *testing.T) {
	frames := fcsFrames(40)
	_, dir := writeVectors(t, "fcs", nil, frames)
	vcdPath, _ := runIverilog(t, "fcs", "fcs_top", []string{"BUG_TKEEP"}, dir)
	res, err := RunFile(loadRTLMap(t, "fcs"), vcdPath)
	require.NoError(t, err)
	require.False(t, res.Passed())
	// The bug needs a last beat with tkeep not all ones: the first frame
	// whose length is not a multiple of 8. Its FCS shows one cycle after
	// its last beat.
	first := -1
	for i, f := range frames {
		if len(f.Data)%8 != 0 {
			first = i
			break
		}
	}
	require.Equal(t, 3, first)
	want := fcsSchedule(frames)[first] + 1
	d := res.Divergence
	require.Equal(t, KindMismatch, d.Kind, res.Summary())
	require.Equal(t, want, d.Cycle, res.Summary())
	require.Equal(t, want*10+5, d.Time)
	require.Equal(t, "tb.top.dut.fcs", d.Signal)
	require.Equal(t, "fcs", d.Field)
	require.EqualValues(t, first, res.Matched)
	t.Log(res.Summary())
}

// icrcPackets draws RoCEv2 packets whose first three carry TTL 0xFF (what
// the mask reads anyway), so BUG_TTL first shows on packet 3 (TTL 64).
func icrcPackets(n int) []Txn {
	b, _ := LookupBlock("icrc")
	p, _ := b.Resolve(nil)
	pk := b.Stimulus(rand.New(rand.NewPCG(21, 22)), p, n)
	for i := range pk {
		switch {
		case i < 3:
			pk[i].Data[8] = 0xff
		case i == 3:
			pk[i].Data[8] = 64
		}
	}
	return pk
}

func TestRTLICRCClean(t *testing.T) {
	pk := icrcPackets(60)
	_, dir := writeVectors(t, "icrc", nil, pk)
	vcdPath, out := runIverilog(t, "icrc", "icrc_top", nil, dir)
	require.Equal(t, 0, tbErrors(t, out), out)
	res, err := RunFile(loadRTLMap(t, "icrc"), vcdPath)
	require.NoError(t, err)
	require.True(t, res.Passed(), res.Summary())
	require.EqualValues(t, 60, res.Matched)
	t.Log(res.Summary())
}

func TestRTLICRCBugTTL(t *testing.T) {
	pk := icrcPackets(60)
	first := -1
	for i, p := range pk {
		if p.Data[8] != 0xff {
			first = i
			break
		}
	}
	require.Equal(t, 3, first)
	_, dir := writeVectors(t, "icrc", nil, pk)
	vcdPath, _ := runIverilog(t, "icrc", "icrc_top", []string{"BUG_TTL"}, dir)
	res, err := RunFile(loadRTLMap(t, "icrc"), vcdPath)
	require.NoError(t, err)
	require.False(t, res.Passed())
	d := res.Divergence
	require.Equal(t, KindMismatch, d.Kind)
	require.Equal(t, fcsSchedule(pk)[first]+1, d.Cycle)
	require.Equal(t, "tb.top.dut.icrc", d.Signal)
	require.EqualValues(t, first, res.Matched)
	t.Log(res.Summary())
}
