package verify

import (
	"bytes"
	"strings"
	"testing"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel/vcd"
	"github.com/stretchr/testify/require"
)

// synthFrameTrace writes the VCD of a correct FCS block on a 64-bit
// AXI-Stream: one beat per cycle from cycle 1, the FCS one cycle after
// each last beat.
func synthFrameTrace(t testing.TB, frames []Txn) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := vcd.NewWriter(&buf, vcd.WriterOptions{Timescale: vcd.Timescale{Magnitude: 1, Unit: vcd.Nanosecond}})
	require.NoError(t, err)
	require.NoError(t, w.PushScope(vcd.ScopeModule, "tb"))
	clk, _ := w.Declare(vcd.VarReg, 1, "clk")
	rst, _ := w.Declare(vcd.VarReg, 1, "rst")
	v, _ := w.Declare(vcd.VarReg, 1, "v")
	d, _ := w.Declare(vcd.VarReg, 64, "d")
	k, _ := w.Declare(vcd.VarReg, 8, "k")
	l, _ := w.Declare(vcd.VarReg, 1, "l")
	ov, _ := w.Declare(vcd.VarReg, 1, "ov")
	f, _ := w.Declare(vcd.VarReg, 32, "f")
	require.NoError(t, w.PopScope())
	cyc := 0
	pendingFCS := -1
	step := func(valid bool, data uint64, keep uint64, last bool) {
		require.NoError(t, w.Time(uint64(10*cyc)))
		require.NoError(t, w.SetUint64(clk, 0))
		require.NoError(t, w.SetBool(rst, cyc == 0))
		require.NoError(t, w.SetBool(v, valid))
		require.NoError(t, w.SetUint64(d, data))
		require.NoError(t, w.SetUint64(k, keep))
		require.NoError(t, w.SetBool(l, last))
		require.NoError(t, w.SetBool(ov, pendingFCS >= 0))
		if pendingFCS >= 0 {
			require.NoError(t, w.SetUint64(f, uint64(packet.FCS(frames[pendingFCS].Data))))
		}
		pendingFCS = -1
		require.NoError(t, w.Time(uint64(10*cyc+5)))
		require.NoError(t, w.SetUint64(clk, 1))
		cyc++
	}
	step(false, 0, 0, false)
	for i, fr := range frames {
		for off := 0; off < len(fr.Data); off += 8 {
			n := min(8, len(fr.Data)-off)
			var data uint64
			for j := n - 1; j >= 0; j-- {
				data = data<<8 | uint64(fr.Data[off+j])
			}
			last := off+n == len(fr.Data)
			step(true, data, 1<<n-1, last)
			if last {
				pendingFCS = i
			}
		}
	}
	step(false, 0, 0, false)
	step(false, 0, 0, false)
	require.NoError(t, w.Close())
	return buf.Bytes()
}

func synthFrameMap(t testing.TB) *Map {
	t.Helper()
	m, err := LoadMap(strings.NewReader("block: fcs\nscope: tb\nclock: {signal: clk}\nreset: {signal: rst}\ncompare: {latency: 1}\n"+
		"input: {valid: v, tdata: d, tkeep: k, tlast: l}\noutput: {valid: ov, fields: {fcs: f}}\n"), "frames.yaml")
	require.NoError(t, err)
	return m
}

func TestSynthFrames(t *testing.T) {
	frames := frameStimulus(newTestRand(), 50, 1, 100, nil)
	res, err := Run(synthFrameMap(t), bytes.NewReader(synthFrameTrace(t, frames)), "frames.vcd")
	require.NoError(t, err)
	require.True(t, res.Passed(), res.Summary())
	require.EqualValues(t, 50, res.Matched)
}
