package verify

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const goodMap = `block: toeplitz
scope: tb
clock: {signal: clk, edge: rising}
reset: {signal: rst_n, active: low}
compare: {mode: exact, latency: 2}
input:
  valid: in_valid
  ready: in_ready
  fields:
    src: bus[95:64]
    dst: bus[63:32]
    sport: bus[31:16]
    dport: 4791
output:
  valid: out_valid
  fields: {hash: hash}
  mask: {hash: 0xffff}
`

func TestLoadMap(t *testing.T) {
	m, err := LoadMap(strings.NewReader(goodMap), "m.yaml")
	require.NoError(t, err)
	require.Equal(t, "toeplitz", m.Block)
	require.Equal(t, "low", m.Reset.Active)
	require.Equal(t, Ref{Text: "bus[95:64]", Line: 10}, m.Input.Fields["src"])
	require.Equal(t, uint64(0xffff), m.Output.Mask["hash"])
}

func TestReferenceMapsLoad(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(rtlDir, "*", "map.yaml"))
	require.NoError(t, err)
	require.Len(t, files, 7)
	for _, f := range files {
		_, err := LoadMapFile(f)
		require.NoError(t, err, f)
	}
}

func TestMapErrorsNameTheLine(t *testing.T) {
	cases := []struct {
		name, edit, from, want string
	}{
		{"unknown top key", "colck: x\n", "", "m.yaml:18: colck: unknown key; a signal map takes block, params, scope, clock, reset, compare, input, output"},
		{"unknown port key", "  bogus: 1\n", "", "m.yaml:18: output.bogus: unknown key; output takes valid, ready, fields, mask, tdata, tkeep, tlast, tuser"},
		{"unknown block", "", "block: toeplitz", `m.yaml:1: unknown block "toeplit"`},
		{"unknown field", "", "    sport: bus[31:16]", `m.yaml:12: input: block toeplitz has no input field "sprot"`},
		{"missing field", "", "    dport: 4791\n", "m.yaml:6: input: field dport of block toeplitz is not mapped"},
		{"bad edge", "", "edge: rising", `m.yaml:3: clock: edge "up"`},
		{"bad polarity", "", "active: low", `m.yaml:4: reset: active "negative"`},
		{"bad mode", "", "mode: exact", `m.yaml:5: compare: mode "loose"`},
		{"frame keys on a beat port", "  tlast: last\n", "", "m.yaml:14: output: block toeplitz's output is a beat port"},
		{"mask of unknown field", "", "mask: {hash: 0xffff}", `m.yaml:14: output: mask names "hsh"`},
		{"not a number", "", "compare: {mode: exact, latency: 2}", "m.yaml:5: compare.latency: two is not a whole number of 0 or more"},
		{"reference not a string", "", "valid: out_valid", "m.yaml:15: a signal reference must be a string, not a sequence"},
		{"second document", "---\nblock: fcs\n", "", "m.yaml:18: a second YAML document: a signal map file holds one map"},
	}
	repl := map[string]string{
		"unknown block": "block: toeplit", "unknown field": "    sprot: bus[31:16]", "missing field": "",
		"bad edge": "edge: up", "bad polarity": "active: negative", "bad mode": "mode: loose",
		"mask of unknown field": "mask: {hsh: 0xffff}", "not a number": "compare: {mode: exact, latency: two}",
		"reference not a string": "valid: [a, b]",
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := goodMap + c.edit
			if c.from != "" {
				src = strings.Replace(goodMap, c.from, repl[c.name], 1)
			}
			_, err := LoadMap(strings.NewReader(src), "m.yaml")
			require.Error(t, err)
			require.Contains(t, err.Error(), c.want)
		})
	}
}

func TestMapChecksBlockRules(t *testing.T) {
	load := func(s string) error {
		_, err := LoadMap(strings.NewReader(s), "m.yaml")
		return err
	}
	require.ErrorContains(t, load("[1, 2]"), "m.yaml:1: a signal map must be a YAML mapping")
	require.ErrorContains(t, load("block: fcs\nclock: {signal: c}\ninput: {valid: v, fields: {a: b}}\noutput: {valid: o, fields: {fcs: f}}\n"),
		"m.yaml:3: input: block fcs's input is a frame port")
	require.ErrorContains(t, load("block: fcs\nclock: {signal: c}\ninput: {valid: v, tdata: d}\noutput: {valid: o, fields: {fcs: f}}\n"),
		"needs tdata and tlast")
	require.ErrorContains(t, load("block: fcs\nclock: {signal: c}\ninput: {valid: v, tdata: d, tlast: l}\n"),
		"m.yaml:1: output: missing")
	require.ErrorContains(t, load("block: wred\nparams: {kmin: 10, kmax: 5}\nclock: {signal: c}\n"), "m.yaml:2: wred: kmax 5 must exceed kmin 10")
	require.ErrorContains(t, load("block: wred\nparams: {depth: 1}\n"), `m.yaml:2: block wred has no parameter "depth"`)
	require.ErrorContains(t, load(strings.Replace(goodMap, "mode: exact", "mode: key, key: nope", 1)), `key "nope" is not a field`)
	require.ErrorContains(t, load(strings.Replace(goodMap, "mode: exact, latency: 2", "mode: window, latency: 2, max_latency: 1", 1)), "max_latency 1 below latency 2")
	require.ErrorContains(t, load("block: psn\n"), "clock: signal is missing")
}

func TestParseRef(t *testing.T) {
	p, err := parseRef(Ref{Text: "a.b[7:4]"}, "top")
	require.NoError(t, err)
	require.Equal(t, parsedRef{name: "top.a.b", sliced: true, msb: 7, lsb: 4}, p)
	p, err = parseRef(Ref{Text: "0x1_0"}, "")
	require.NoError(t, err)
	require.Equal(t, parsedRef{constant: true, value: 16}, p)
	for _, bad := range []string{"[3]", "a[x:1]", "a[3:-1]", "9zz", "a[1:2"} {
		_, err := parseRef(Ref{Text: bad}, "")
		if bad == "a[1:2" {
			require.NoError(t, err, "no closing bracket: a plain name")
			continue
		}
		require.Error(t, err, bad)
	}
}
