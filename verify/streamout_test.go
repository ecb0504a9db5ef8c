package verify

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel/vcd"
	"github.com/stretchr/testify/require"
)

// rsTrace writes a trace of the rs544 block with AXI-Stream on both
// sides: input frames beat after beat from cycle 1, and each output frame
// (8 beats of parity) from the cycle after its input's last beat, so the
// output's last beat comes 8 cycles after the input's. corrupt may change
// output frame i.
func rsTrace(t *testing.T, msgs []Txn, corrupt func(i int, b []byte)) []byte {
	t.Helper()
	m := newModel(t, "rs544", nil)
	type beat struct {
		data uint64
		keep uint64
		last bool
	}
	split := func(b []byte) []beat {
		var out []beat
		for off := 0; off < len(b); off += 8 {
			n := min(8, len(b)-off)
			var d uint64
			for j := n - 1; j >= 0; j-- {
				d = d<<8 | uint64(b[off+j])
			}
			out = append(out, beat{d, 1<<n - 1, off+n == len(b)})
		}
		return out
	}
	var in []beat
	outAt := map[int]beat{}
	for i := range msgs {
		in = append(in, split(msgs[i].Data)...)
		par := apply(t, m, msgs[i])[0].Data
		if corrupt != nil {
			corrupt(i, par)
		}
		for k, b := range split(par) {
			outAt[len(in)+1+k] = b // input beat j is at cycle j+1
		}
	}
	var buf bytes.Buffer
	w, err := vcd.NewWriter(&buf, vcd.WriterOptions{Timescale: vcd.Timescale{Magnitude: 1, Unit: vcd.Nanosecond}})
	require.NoError(t, err)
	require.NoError(t, w.PushScope(vcd.ScopeModule, "tb"))
	h := map[string]vcd.Handle{}
	for _, s := range []struct {
		n string
		w int
	}{{"clk", 1}, {"rst", 1}, {"iv", 1}, {"id", 64}, {"ik", 8}, {"il", 1}, {"ov", 1}, {"od", 64}, {"ok", 8}, {"ol", 1}} {
		h[s.n], err = w.Declare(vcd.VarReg, s.w, s.n)
		require.NoError(t, err)
	}
	require.NoError(t, w.PopScope())
	set := func(n string, v uint64) { require.NoError(t, w.SetUint64(h[n], v)) }
	b2u := func(b bool) uint64 {
		if b {
			return 1
		}
		return 0
	}
	for c := 0; c <= len(in)+10; c++ {
		require.NoError(t, w.Time(uint64(10*c)))
		set("clk", 0)
		set("rst", b2u(c == 0))
		if j := c - 1; j >= 0 && j < len(in) {
			set("iv", 1)
			set("id", in[j].data)
			set("ik", in[j].keep)
			set("il", b2u(in[j].last))
		} else {
			set("iv", 0)
		}
		if b, ok := outAt[c]; ok {
			set("ov", 1)
			set("od", b.data)
			set("ok", b.keep)
			set("ol", b2u(b.last))
		} else {
			set("ov", 0)
		}
		require.NoError(t, w.Time(uint64(10*c+5)))
		set("clk", 1)
	}
	require.NoError(t, w.Close())
	return buf.Bytes()
}

func rsMap(t *testing.T) *Map {
	m, err := LoadMap(strings.NewReader("block: rs544\nscope: tb\nclock: {signal: clk}\nreset: {signal: rst}\ncompare: {latency: 8}\n"+
		"input: {valid: iv, tdata: id, tkeep: ik, tlast: il}\noutput: {valid: ov, tdata: od, tkeep: ok, tlast: ol}\n"), "rs.yaml")
	require.NoError(t, err)
	return m
}

func TestFrameOutputs(t *testing.T) {
	b, _ := LookupBlock("rs544")
	msgs := b.Stimulus(rand.New(rand.NewPCG(4, 4)), nil, 6)
	res, err := Run(rsMap(t), bytes.NewReader(rsTrace(t, msgs, nil)), "rs.vcd")
	require.NoError(t, err)
	require.True(t, res.Passed(), res.Summary())
	require.EqualValues(t, 6, res.Matched)

	trace := rsTrace(t, msgs, func(i int, b []byte) {
		if i == 2 {
			b[37] ^= 1
		}
	})
	res, err = Run(rsMap(t), bytes.NewReader(trace), "rs.vcd")
	require.NoError(t, err)
	d := res.Divergence
	require.Equal(t, KindMismatch, d.Kind)
	require.EqualValues(t, 3*129+8, d.Cycle) // message 2's last input beat is at cycle 3*129
	require.Equal(t, "tb.od", d.Signal)
	require.Contains(t, d.Detail, "byte 37")
}
