package verify

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestBindErrorsNameTheMapLine(t *testing.T) {
	trace := synthTrace(t, "toeplitz", nil, toeplitzStim(4), synthOpts{resetCycles: 1})
	base := synthMap(t, "toeplitz", "latency: 1", "")
	cases := []struct {
		set  func(m *Map)
		want string
	}{
		{func(m *Map) { m.Input.Fields["src"] = Ref{Text: "in_srcc", Line: 9} }, "synth.yaml:9: input.src: signal tb.in_srcc is not in the VCD"},
		{func(m *Map) { m.Input.Fields["sport"] = Ref{Text: "in_sport[16:0]", Line: 11} }, "synth.yaml:11: input.sport: slice [16:0] is outside tb.in_sport"},
		{func(m *Map) { m.Input.Fields["sport"] = Ref{Text: "in_src", Line: 11} }, "synth.yaml:11: input.sport: tb.in_src is 32 bits wide, the field holds 16"},
		{func(m *Map) { m.Input.Fields["sport"] = Ref{Text: "0x10000", Line: 11} }, "synth.yaml:11: input.sport: constant 0x10000 does not fit in 16 bits"},
		{func(m *Map) { m.Output.Valid = Ref{Text: "out_hash", Line: 13} }, "synth.yaml:13: output.valid: tb.out_hash is 32 bits; a control signal is one bit"},
		{func(m *Map) { m.Clock.Signal = Ref{Text: "1", Line: 3} }, "synth.yaml:3: clock: a constant cannot clock anything"},
	}
	for _, c := range cases {
		m := *base
		m.Input.Fields = map[string]Ref{}
		for k, v := range base.Input.Fields {
			m.Input.Fields[k] = v
		}
		c.set(&m)
		_, err := Run(&m, bytes.NewReader(trace), "synth.vcd")
		require.Error(t, err)
		require.Contains(t, err.Error(), c.want)
	}
}

func TestSlicesAndConstants(t *testing.T) {
	in := toeplitzStim(20)
	for i := range in {
		in[i].Fields[3] = 4791
	}
	trace := synthTrace(t, "toeplitz", nil, in, synthOpts{resetCycles: 1})
	m := synthMap(t, "toeplitz", "latency: 1", "")
	m.Input.Fields["dport"] = Ref{Text: "4791"}
	res, err := Run(m, bytes.NewReader(trace), "synth.vcd")
	require.NoError(t, err)
	require.True(t, res.Passed(), res.Summary())
	// Reading the hash in two halves through a mask-free slice of the
	// low 16 bits only: the high half is left out of the comparison.
	m.Output.Fields["hash"] = Ref{Text: "out_hash[15:0]"}
	m.Output.Mask = map[string]uint64{"hash": 0xffff}
	res, err = Run(m, bytes.NewReader(trace), "synth.vcd")
	require.NoError(t, err)
	require.True(t, res.Passed(), res.Summary())
}

func TestVCDErrorsCarryTheLine(t *testing.T) {
	trace := synthTrace(t, "toeplitz", nil, toeplitzStim(4), synthOpts{resetCycles: 1})
	bad := strings.Replace(string(trace), "#15", "#1x5", 1)
	_, err := Run(synthMap(t, "toeplitz", "latency: 1", ""), strings.NewReader(bad), "bad.vcd")
	require.Error(t, err)
	require.Regexp(t, `^bad\.vcd:\d+: `, err.Error())
}

func TestRunChecksMapsBuiltInCode(t *testing.T) {
	trace := synthTrace(t, "toeplitz", nil, toeplitzStim(4), synthOpts{resetCycles: 1})
	m := synthMap(t, "toeplitz", "latency: 1", "")
	delete(m.Input.Fields, "dport")
	_, err := Run(m, bytes.NewReader(trace), "synth.vcd")
	require.ErrorContains(t, err, "field dport of block toeplitz is not mapped")
}
