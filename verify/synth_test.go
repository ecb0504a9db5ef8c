package verify

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel/vcd"
	"github.com/stretchr/testify/require"
)

// synthOpts shapes a synthetic trace of a beat block.
type synthOpts struct {
	resetCycles int
	latency     func(i int) int      // cycles from input i to its output
	corrupt     func(i int, t *Txn)  // changes output i before it is written
	xbits       func(i int) []uint64 // x bits per field of output i, or nil
	drop        func(i int) bool     // leaves output i out
	extra       int                  // cycles after the last output
}

// synthTrace writes the VCD a correct (or deliberately wrong) block would
// produce: signals tb.clk, tb.rst, tb.in_valid, tb.in_<field>,
// tb.out_valid, tb.out_<field>; edge k at time 10k+5 samples what was set
// at 10k. Input i is sampled at cycle resetCycles+i.
func synthTrace(t testing.TB, block string, params Params, inputs []Txn, o synthOpts) []byte {
	t.Helper()
	b, err := LookupBlock(block)
	require.NoError(t, err)
	if params == nil {
		params, err = b.Resolve(nil)
		require.NoError(t, err)
	}
	m, err := b.New(params)
	require.NoError(t, err)
	if o.latency == nil {
		o.latency = func(int) int { return 1 }
	}
	outAt := map[int]Txn{}
	xAt := map[int][]uint64{}
	last := 0
	n := 0
	for i := range inputs {
		outs, err := m.Apply(&inputs[i], nil)
		require.NoError(t, err)
		for _, ot := range outs {
			c := o.resetCycles + i + o.latency(n)
			if o.corrupt != nil {
				o.corrupt(n, &ot)
			}
			if o.drop == nil || !o.drop(n) {
				_, dup := outAt[c]
				require.False(t, dup, "two outputs at cycle %d", c)
				outAt[c] = ot
				if o.xbits != nil {
					xAt[c] = o.xbits(n)
				}
			}
			last = max(last, c)
			n++
		}
	}
	var buf bytes.Buffer
	w, err := vcd.NewWriter(&buf, vcd.WriterOptions{Timescale: vcd.Timescale{Magnitude: 1, Unit: vcd.Nanosecond}})
	require.NoError(t, err)
	require.NoError(t, w.PushScope(vcd.ScopeModule, "tb"))
	clk, _ := w.Declare(vcd.VarReg, 1, "clk")
	rst, _ := w.Declare(vcd.VarReg, 1, "rst")
	iv, _ := w.Declare(vcd.VarReg, 1, "in_valid")
	var inH, outH []vcd.Handle
	for _, f := range b.Input.Fields {
		h, err := w.Declare(vcd.VarReg, f.Width, "in_"+f.Name)
		require.NoError(t, err)
		inH = append(inH, h)
	}
	ov, _ := w.Declare(vcd.VarReg, 1, "out_valid")
	for _, f := range b.Output.Fields {
		h, err := w.Declare(vcd.VarReg, f.Width, "out_"+f.Name)
		require.NoError(t, err)
		outH = append(outH, h)
	}
	require.NoError(t, w.PopScope())
	end := max(last, o.resetCycles+len(inputs)) + 1 + o.extra
	for k := 0; k <= end; k++ {
		require.NoError(t, w.Time(uint64(10*k)))
		require.NoError(t, w.SetUint64(clk, 0))
		require.NoError(t, w.SetBool(rst, k < o.resetCycles))
		i := k - o.resetCycles
		if i >= 0 && i < len(inputs) {
			require.NoError(t, w.SetUint64(iv, 1))
			for j, h := range inH {
				require.NoError(t, w.SetUint64(h, inputs[i].Fields[j]))
			}
		} else {
			require.NoError(t, w.SetUint64(iv, 0))
		}
		if ot, ok := outAt[k]; ok {
			require.NoError(t, w.SetUint64(ov, 1))
			for j, h := range outH {
				require.NoError(t, w.SetBits(h, bitString(ot.Fields[j], xAt[k], j, b.Output.Fields[j].Width)))
			}
		} else {
			require.NoError(t, w.SetUint64(ov, 0))
		}
		require.NoError(t, w.Time(uint64(10*k+5)))
		require.NoError(t, w.SetUint64(clk, 1))
	}
	require.NoError(t, w.Close())
	return buf.Bytes()
}

func bitString(v uint64, x []uint64, j, width int) string {
	var s strings.Builder
	for i := width - 1; i >= 0; i-- {
		switch {
		case j < len(x) && x[j]>>i&1 != 0:
			s.WriteByte('x')
		case v>>i&1 != 0:
			s.WriteByte('1')
		default:
			s.WriteByte('0')
		}
	}
	return s.String()
}

// synthMap is the signal map of a synthTrace; compare is the body of
// the compare: mapping, extra is appended to the output mapping.
func synthMap(t testing.TB, block, compare, extra string) *Map {
	t.Helper()
	b, err := LookupBlock(block)
	require.NoError(t, err)
	var s strings.Builder
	fmt.Fprintf(&s, "block: %s\nscope: tb\nclock: {signal: clk}\nreset: {signal: rst}\ncompare: {%s}\n", block, compare)
	s.WriteString("input:\n  valid: in_valid\n  fields:\n")
	for _, f := range b.Input.Fields {
		fmt.Fprintf(&s, "    %s: in_%s\n", f.Name, f.Name)
	}
	s.WriteString("output:\n  valid: out_valid\n  fields:\n")
	for _, f := range b.Output.Fields {
		fmt.Fprintf(&s, "    %s: out_%s\n", f.Name, f.Name)
	}
	s.WriteString(extra)
	m, err := LoadMap(strings.NewReader(s.String()), "synth.yaml")
	require.NoError(t, err, s.String())
	return m
}

func runSynth(t testing.TB, m *Map, trace []byte) *Result {
	t.Helper()
	res, err := Run(m, bytes.NewReader(trace), "synth.vcd")
	require.NoError(t, err)
	return res
}
