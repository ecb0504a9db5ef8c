package verify

import (
	"os"
	"strings"
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel/vcd"
	"github.com/stretchr/testify/require"
)

// psnVCD is a hand-written trace of the psn block: clock c (rising at 5,
// 15, 25, ...), reset r (active low), input valid v and psn p, output
// valid o with result s, advance a and epsn e. Values change at the same
// time step as the clock, after it in the file, as simulators write them.
const psnVCD = `$timescale 1ns $end
$scope module tb $end
$var wire 1 ! c $end
$var wire 1 " r $end
$var wire 1 # v $end
$var wire 24 $ p [23:0] $end
$var wire 1 % o $end
$var wire 2 & s [1:0] $end
$var wire 7 ' a [6:0] $end
$var wire 24 ( e [23:0] $end
$upscope $end
$enddefinitions $end
#0
$dumpvars
0!
0"
0#
b0 $
0%
b0 &
b0 '
b0 (
$end
#5
1!
#10
0!
1"
#15
1!
1#
b0 $
#20
0!
#25
1!
b1 $
1%
b1 '
b1 (
#30
0!
#35
1!
0#
b1 '
b10 (
#40
0!
#45
1!
0%
x#
#50
0!
#55
1!
`

func psnMap(t *testing.T, clock string) *Map {
	t.Helper()
	m, err := LoadMap(strings.NewReader("block: psn\nscope: tb\nclock: {signal: c"+clock+"}\nreset: {signal: r, active: low}\n"+
		"compare: {latency: 1}\ninput: {valid: v, fields: {psn: p}}\noutput: {valid: o, fields: {result: s, advance: a, epsn: e}}\n"), "psn.yaml")
	require.NoError(t, err)
	return m
}

func TestSamplingBeforeTheEdge(t *testing.T) {
	// The c change at #15 is the rising edge of cycle 1; the v and p
	// changes written after it in the same step are sampled at cycle 2.
	res, err := Run(psnMap(t, ""), strings.NewReader(strings.Replace(psnVCD, "x#\n", "", 1)), "psn.vcd")
	require.NoError(t, err)
	require.True(t, res.Passed(), res.Summary())
	require.EqualValues(t, 2, res.Inputs)
	require.EqualValues(t, 2, res.Matched)
	require.EqualValues(t, 1, res.ResetCycles, "the edge at 5 sees r low, the one at 15 sees it high")
	require.EqualValues(t, 6, res.Cycles)
}

func TestXOnInputValid(t *testing.T) {
	res, err := Run(psnMap(t, ""), strings.NewReader(psnVCD), "psn.vcd")
	require.NoError(t, err)
	require.False(t, res.Passed())
	d := res.Divergence
	require.Equal(t, KindXInput, d.Kind)
	require.EqualValues(t, 5, d.Cycle)
	require.Equal(t, "tb.v", d.Signal)
	require.Equal(t, "x", d.Got)
}

func TestFallingEdge(t *testing.T) {
	// Sampled at the falling edges (10, 20, 30, 40, 50): the edge at 10
	// sees r low, the inputs at 20 and 30, their outputs at 30 and 40, and
	// the x on v at 50.
	res, err := Run(psnMap(t, ", edge: falling"), strings.NewReader(psnVCD), "psn.vcd")
	require.NoError(t, err)
	require.EqualValues(t, 1, res.ResetCycles)
	require.EqualValues(t, 2, res.Matched)
	require.Equal(t, KindXInput, res.Divergence.Kind)
	require.EqualValues(t, 4, res.Divergence.Cycle)
	require.EqualValues(t, 50, res.Divergence.Time)
}

func TestGenerateScopeNames(t *testing.T) {
	// Icarus writes generate blocks as scopes named crc[0]; a reference
	// through them still takes a slice.
	f, err := os.Open("../rtlmodel/vcd/testdata/icarus.vcd")
	require.NoError(t, err)
	defer f.Close()
	rd, err := vcd.NewReader(f)
	require.NoError(t, err)
	b := &binder{m: &Map{Name: "m.yaml"}, h: rd.Header()}
	p, err := b.bind(Ref{Text: "tb.crc[1].st[1:1]"}, "x", 0)
	require.NoError(t, err)
	require.Equal(t, 1, p.lo)
	require.Equal(t, 1, p.width)
	p, err = b.bind(Ref{Text: "tb.data[7:0]"}, "x", 0)
	require.NoError(t, err)
	require.Equal(t, 8, p.width)
	_, err = b.bind(Ref{Text: "tb.crc[2].st", Line: 4}, "x", 0)
	require.ErrorContains(t, err, "m.yaml:4: x: signal tb.crc[2].st is not in the VCD")
}
