package explore

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func log(x float64) float64 { return math.Log(x) }

func TestSweepFileIsStrict(t *testing.T) {
	ok := "name: s\nevaluator: count\ndesign: {kind: grid}\nparameters:\n  - {name: x, values: ['1']}\nmetrics: [f]\n"
	_, err := ParseSweep([]byte(ok))
	require.NoError(t, err)
	for _, c := range []struct{ text, want string }{
		{ok + "colour: red\n", "line 7: colour: unknown key; a sweep takes name, evaluator, seed, base, design, parameters, metrics, pareto, plots"},
		{"name: s\nevaluator: count\ndesign: {kind: grid, sample: 3}\nparameters:\n  - {name: x, values: ['1']}\nmetrics: [f]\n", "line 3: design.sample: unknown key; design takes kind, samples"},
		{"name: s\nevaluator: nope\ndesign: {kind: grid}\nparameters:\n  - {name: x, values: ['1']}\nmetrics: [f]\n", `evaluator "nope"`},
		{"name: s\nevaluator: count\ndesign: {kind: grid}\nparameters:\n  - {name: w, values: ['1']}\nmetrics: [f]\n", `unknown parameter "w"`},
		{"name: s\nevaluator: count\ndesign: {kind: grid}\nparameters:\n  - {name: x, values: ['1']}\nmetrics: [h]\n", `no metric "h"`},
		{"name: s\nevaluator: count\ndesign: {kind: cube}\nparameters:\n  - {name: x, values: ['1']}\nmetrics: [f]\n", "want grid, random or lhs"},
		{"name: s\nevaluator: count\ndesign: {kind: lhs}\nparameters:\n  - {name: x, min: 1, max: 2}\nmetrics: [f]\n", "samples >= 1"},
		{"name: s\nevaluator: count\ndesign: {kind: grid}\nparameters:\n  - {name: x, min: 1, max: 2}\nmetrics: [f]\n", "steps >= 1"},
		{"name: s\nevaluator: count\ndesign: {kind: grid}\nparameters:\n  - {name: x, values: ['1', '1']}\nmetrics: [f]\n", "twice"},
		{ok + "pareto: {x: f, x_goal: up, y: f, y_goal: min}\n", "want min or max"},
		{ok + "plots: [{x: y, y: f, file: a.png}]\n", "not a swept parameter"},
		{"name: s\nevaluator: count\nbase: {w: 1}\ndesign: {kind: grid}\nparameters:\n  - {name: x, values: ['1']}\nmetrics: [f]\n", `line 3: base: unknown parameter "w"`},
		// a second sweep after it would be lost without a word
		{ok + "---\n" + ok, "line 7: a second YAML document: a sweep file holds one sweep"},
		{"# nothing yet\n", "no sweep: the file is empty or only comments"},
	} {
		_, err := ParseSweep([]byte(c.text))
		require.Error(t, err, c.text)
		assert.Contains(t, err.Error(), c.want)
	}
}

func TestLoadSweepNamesTheFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "bad.yaml")
	require.NoError(t, os.WriteFile(p, []byte("name: s\nevaluatr: count\n"), 0o644))
	_, err := LoadSweep(p)
	require.Error(t, err)
	assert.Equal(t, p+":2: evaluatr: unknown key; a sweep takes name, evaluator, seed, base, design, parameters, metrics, pareto, plots", err.Error())
}

// Every check of a sweep file names the file and the line of the key it
// is about, as a scenario file's errors do.
func TestSweepErrorsNameTheirLine(t *testing.T) {
	const ok = `name: s
evaluator: count
seed: 1
base:
  z: 1
design:
  kind: grid
parameters:
  - name: x
    values: ['1', '2']
  - name: y
    min: 1
    max: 2
    steps: 2
metrics: [f, g]
pareto: {x: f, x_goal: min, y: g, y_goal: max}
plots:
  - {x: x, y: f, file: f.png}
  - {x: y, y: g, file: g.png}
`
	dir := t.TempDir()
	p := filepath.Join(dir, "sweep.yaml")
	require.NoError(t, os.WriteFile(p, []byte(ok), 0o644))
	_, err := LoadSweep(p)
	require.NoError(t, err)
	for _, c := range []struct{ old, new, want string }{
		{"evaluator: count", "evaluator: foo", `:2: evaluator "foo": want one of `},
		{"seed: 1", "seed: one", ":3: seed: one is not a whole number of 0 or more"},
		{"seed: 1", "seed: 1\nbogus: 2", `:4: bogus: unknown key; a sweep takes name, evaluator, seed, base, design, parameters, metrics, pareto, plots`},
		{"seed: 1", "seed: 1\nseed: 2", ":4: seed: set twice (first at line 3)"},
		{"  z: 1", "  z: 1\n  w: 2", `:6: base: unknown parameter "w"`},
		{"  z: 1", "  z: one", `:5: base: strconv.ParseFloat: parsing "one"`},
		{"values: ['1', '2']", "values: ['1', 'two']", `:9: point `},
		{"  kind: grid", "  kind: sobol", `:7: design: kind "sobol": want grid, random or lhs`},
		{"  kind: grid", "  kind: lhs", ":6: design: lhs needs samples >= 1"},
		{"  kind: grid", "  kind: grid\n  sample: 3", ":8: design.sample: unknown key; design takes kind, samples"},
		{"  - name: y", "  - nme: y", ":11: parameters.1.nme: unknown key; parameters.1 takes name, values, min, max, steps, scale, integer"},
		{"    steps: 2", "    steps: two", ":14: parameters.1.steps: two is not a whole number"},
		{"    max: 2", "    max: 0", ":11: parameters: y: max 0 < min 1"},
		{"  - name: y", "  - name: x", `:11: parameters: "x" twice`},
		{"metrics: [f, g]", "metrics: [f, h]", `:15: metrics: count has no metric "h" (it has f, g)`},
		{"x_goal: min", "x_goal: least", `:16: pareto: x_goal "least": want min or max`},
		{"y: g, y_goal", "y: h, y_goal", `:16: pareto: y "h" is not a collected metric`},
		{"{x: y, y: g, file: g.png}", "{x: y, y: h, file: g.png}", `:19: plots.1: y "h" is not a collected metric`},
		{"{x: x, y: f, file: f.png}", "{x: z, y: f, file: f.png}", `:18: plots.0: x "z" is not a swept parameter`},
		{"{x: y, y: g, file: g.png}", "{x: y, y: g}", `:19: plots.1: no file`},
		{"name: s", "name: caf\xe9", ":1: byte 0xe9, character 10 of the line, is not UTF-8: a sweep file is UTF-8 text"},
		{"seed: 1", "seed: 1\n  bad: 2", ":4: mapping values are not allowed in this context"},
	} {
		text := strings.Replace(ok, c.old, c.new, 1)
		require.NotEqual(t, ok, text, c.old)
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		_, err := LoadSweep(p)
		require.Error(t, err, c.new)
		assert.Contains(t, err.Error(), p+c.want, c.new)
	}
}
