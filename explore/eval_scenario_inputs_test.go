package explore

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pointIDs loads the sweep file at path and lists its points' ids.
func pointIDs(t *testing.T, path string) []string {
	t.Helper()
	s, err := LoadSweep(path)
	require.NoError(t, err)
	pts, err := s.Points()
	require.NoError(t, err)
	var ids []string
	for _, p := range pts {
		ids = append(ids, p.ID)
	}
	return ids
}

// A point's id stands for what it evaluates: editing the base scenario
// file, or moving the sweep beside another file of the same name, gives
// new ids, so a rerun evaluates the points again rather than keeping the
// results of the old scenario.
func TestScenarioPointIDsFollowTheScenarioContent(t *testing.T) {
	root := t.TempDir()
	write := func(rel, text string) string {
		p := filepath.Join(root, rel)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		return p
	}
	const sweep = `name: t
evaluator: scenario
seed: 1
base: {scenario: ../base/small.yaml}
design: {kind: grid}
parameters:
  - {name: workload.bytes, values: [4096, 8192]}
metrics: [completed_fraction]
`
	p := write("a/sweep.yaml", sweep)
	write("base/small.yaml", smallScenario)
	out := t.TempDir()
	st, err := Run(context.Background(), must(LoadSweep(p)), RunOptions{Dir: out, Workers: 1})
	require.NoError(t, err)
	require.Equal(t, 2, st.Evaluated)
	first := pointIDs(t, p)
	require.Equal(t, first, pointIDs(t, p), "the same inputs, the same ids")

	write("base/small.yaml", strings.Replace(smallScenario, "hosts_per_leaf: 2", "hosts_per_leaf: 4", 1))
	st, err = Run(context.Background(), must(LoadSweep(p)), RunOptions{Dir: out, Workers: 1})
	require.NoError(t, err)
	assert.Equal(t, RunStats{Points: 2, Evaluated: 2}, st, "an edited base scenario is evaluated again")
	edited := pointIDs(t, p)
	assert.NotEqual(t, first[0], edited[0])

	// the same sweep beside another small.yaml
	moved := write("elsewhere/a/sweep.yaml", sweep)
	write("elsewhere/base/small.yaml", smallScenario)
	assert.Equal(t, first, pointIDs(t, moved), "the same content: the same points")
	write("elsewhere/base/small.yaml", strings.Replace(smallScenario, "spines: 2", "spines: 1", 1))
	assert.NotEqual(t, first, pointIDs(t, moved))

	// a trace the scenario reads is an input too
	write("base/t.csv", "0,1,4096,0\n")
	write("base/small.yaml", strings.Replace(smallScenario, "workload: {kind: permutation, bytes: 65536}", "workload: {kind: csv, file: t.csv}", 1))
	p = write("a/sweep.yaml", strings.Replace(sweep, "workload.bytes, values: [4096, 8192]", "seed, values: [1, 2]", 1))
	trace := pointIDs(t, p)
	write("base/t.csv", "0,1,8192,0\n")
	assert.NotEqual(t, trace, pointIDs(t, p), "an edited trace gives new ids")
}

// An evaluator that reads no inputs keeps the ids it always had, so the
// result directories of its sweeps stay valid: the point of the documented
// incast sweep at a 96 MB buffer and Kmin 3.2 MB is 3a1e04cc6201a2e2.
func TestPointIDsWithoutInputsAreUnchanged(t *testing.T) {
	s, err := LoadSweep("../docs/explore_incast.yaml")
	require.NoError(t, err)
	pts, err := s.Points()
	require.NoError(t, err)
	last := pts[len(pts)-1]
	require.Equal(t, []Assignment{{"switch.buffer_bytes", "96000000"}, {"ecn.kmin_bytes", "3200000"}}, last.Params)
	assert.Equal(t, "3a1e04cc6201a2e2", last.ID)
}

// Over the default scenario a relative trace file is read from the sweep
// file's directory, as the sweep's scenario file is, whatever the working
// directory: the point runs, and its id covers the trace's content.
func TestDefaultScenarioSweepReadsItsTraceBesideIt(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sweeps")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	trace := filepath.Join(dir, "trace.csv")
	require.NoError(t, os.WriteFile(trace, []byte("src,dst,bytes,start_ns\n0,1,4096,0\n"), 0o644))
	p := filepath.Join(dir, "sweep.yaml")
	require.NoError(t, os.WriteFile(p, []byte(`name: trace
evaluator: scenario
base:
  workload: "{kind: csv}"
design: {kind: grid}
parameters:
  - {name: workload.file, values: [trace.csv]}
metrics: [completed_fraction]
`), 0o644))
	s, err := LoadSweep(p)
	require.NoError(t, err)
	st, err := Run(context.Background(), s, RunOptions{Dir: t.TempDir(), Workers: 1})
	require.NoError(t, err, "the working directory is %s, not the sweep's", must(os.Getwd()))
	assert.Equal(t, 1, st.Evaluated)

	before := pointIDs(t, p)
	require.NoError(t, os.WriteFile(trace, []byte("src,dst,bytes,start_ns\n0,1,8192,0\n"), 0o644))
	assert.NotEqual(t, before, pointIDs(t, p), "an edited trace gives new ids")
}
