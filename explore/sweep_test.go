package explore

import (
	"math"
	"os"
	"path/filepath"
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
		{ok + "colour: red\n", "line 7: field colour not found"},
		{"name: s\nevaluator: count\ndesign: {kind: grid, sample: 3}\nparameters:\n  - {name: x, values: ['1']}\nmetrics: [f]\n", "line 3: field sample not found"},
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
	assert.Contains(t, err.Error(), "bad.yaml")
	assert.Contains(t, err.Error(), "line 2")
}
