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

// small shrinks the default scenario to 4 hosts and 256 KiB flows.
var small = []Assignment{
	{"topology.leaves", "2"}, {"topology.spines", "2"}, {"topology.hosts_per_leaf", "2"},
	{"workload.bytes", "262144"},
}

func TestScenarioEvaluatorChecksKeysStrictly(t *testing.T) {
	var e scenarioEvaluator
	require.NoError(t, e.Check(append(small, Assignment{"switch.pfc_classes", "[0, 3]"}, Assignment{"switch.ecn.kmin_bytes", "50000"},
		Assignment{"switch.ecn.kmax_bytes", "400000"}, Assignment{"switch.ecn.pmax", "0.2"})))
	// a marking curve whose Kmax is not above its Kmin is found when the
	// point is checked, not when its fabric is built
	err := e.Check(append(small, Assignment{"switch.ecn.kmin_bytes", "50000"}))
	require.Error(t, err)
	// the label, then the key: no line of a text nobody can open
	assert.Contains(t, err.Error(), "switch.ecn.kmin_bytes=50000: switch.ecn: KmaxBytes 0 must exceed KminBytes 50000")
	err = e.Check([]Assignment{{"switch.ecn.kmn_bytes", "5"}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "kmn_bytes")
	err = e.Check([]Assignment{{"workload.bytes.low", "5"}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "workload.bytes is not a mapping")
	err = e.Check([]Assignment{{"switch.lb", "hashing"}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "hashing")
	err = e.Check([]Assignment{{"nic.mtu", "[1"}})
	require.Error(t, err)
	err = e.Check([]Assignment{{scenarioFileParam, filepath.Join(t.TempDir(), "absent.yaml")}})
	require.Error(t, err)
	// a base scenario is read as a scenario file is: one document, its
	// errors at their lines
	two := filepath.Join(t.TempDir(), "two.yaml")
	require.NoError(t, os.WriteFile(two, []byte("name: a\n---\nname: b\n"), 0o644))
	err = e.Check([]Assignment{{scenarioFileParam, two}})
	require.ErrorContains(t, err, two+":2: a second YAML document: a scenario file holds one scenario")
}

// Each point is a whole fabric run: the values reach the model (a spine
// count or load-balancing mode changes what it measures) and one seed
// gives one answer.
func TestScenarioEvaluatorRunsTheFabric(t *testing.T) {
	var e scenarioEvaluator
	ctx := context.Background()
	perflow, err := e.Evaluate(ctx, append(small, Assignment{"switch.lb", "perflow"}), 3)
	require.NoError(t, err)
	assert.Equal(t, 1.0, perflow["completed_fraction"])
	assert.Greater(t, perflow["goodput_gbps"], 100.0)
	assert.Greater(t, perflow["jct_us"], 0.0)
	assert.GreaterOrEqual(t, perflow["jct_us"], perflow["fct_max_us"]-1e-9)
	again, err := e.Evaluate(ctx, append(small, Assignment{"switch.lb", "perflow"}), 4)
	require.NoError(t, err)
	assert.Equal(t, perflow, again, "the scenario's seed, not the point's, draws the traffic")
	other, err := e.Evaluate(ctx, append(small, Assignment{"switch.lb", "perflow"}, Assignment{"seed", "2"}), 3)
	require.NoError(t, err)
	assert.NotEqual(t, perflow, other, "a seed parameter draws other traffic")
	// four hosts a leaf, so that spraying has flows to spread over the
	// uplinks (with two, the permutation puts one flow each way)
	wide := []Assignment{{"topology.leaves", "2"}, {"topology.spines", "2"}, {"topology.hosts_per_leaf", "4"}, {"workload.bytes", "262144"}}
	perflowWide, err := e.Evaluate(ctx, append(wide, Assignment{"switch.lb", "perflow"}), 3)
	require.NoError(t, err)
	spray, err := e.Evaluate(ctx, append(wide, Assignment{"switch.lb", "spray"}, Assignment{"nic.paths", "spray"}), 3)
	require.NoError(t, err)
	assert.Equal(t, 1.0, spray["completed_fraction"])
	assert.NotEqual(t, perflowWide, spray)
	// A run cut short by max_time_us reports the flows it completed.
	cut, err := e.Evaluate(ctx, append(small, Assignment{"max_time_us", "5"}), 3)
	require.NoError(t, err)
	assert.Less(t, cut["completed_fraction"], 1.0)
}

func TestScenarioSweepParses(t *testing.T) {
	s, err := ParseSweep([]byte(`
name: lb
evaluator: scenario
seed: 1
base:
  topology.leaves: 2
  switch.pfc_classes: "[0]"
  switch.ecn.kmax_bytes: 1600000
  switch.ecn.pmax: 0.2
design: {kind: grid}
parameters:
  - {name: switch.lb, values: [perflow, spray, dlb]}
  - {name: switch.ecn.kmin_bytes, values: [50000, 200000]}
metrics: [jct_us, goodput_gbps]
`))
	require.NoError(t, err)
	pts, err := s.Points()
	require.NoError(t, err)
	assert.Len(t, pts, 6)
	_, err = ParseSweep([]byte(`
name: lb
evaluator: scenario
design: {kind: grid}
parameters:
  - {name: switch.lbx, values: [perflow]}
metrics: [jct_us]
`))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "lbx")
	// Base values that only make sense together (a fat tree and its k).
	_, err = ParseSweep([]byte(`
name: ft
evaluator: scenario
base:
  topology.kind: fattree
  topology.k: 4
  topology.leaves: 0
  topology.spines: 0
  topology.hosts_per_leaf: 0
design: {kind: grid}
parameters:
  - {name: workload.bytes, values: [65536]}
metrics: [jct_us]
`))
	require.NoError(t, err)
}

// The sweep files the documentation runs load, every point checked
// against its evaluator.
func TestDocumentedSweepsLoad(t *testing.T) {
	files, err := filepath.Glob("../docs/*.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		_, err := LoadSweep(f)
		require.NoError(t, err, f)
	}
}

// A sweep's base scenario file is read from the sweep file's directory,
// whatever the working directory, and a bad base value is reported at
// its line, against that file rather than the default scenario.
func TestScenarioSweepReadsItsScenarioBesideIt(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sweeps")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "small.yaml"), []byte(smallScenario), 0o644))
	sweep := `name: beside
evaluator: scenario
base:
  scenario: small.yaml
  workload.bytes: 4096
design: {kind: grid}
parameters:
  - {name: switch.ecn.kmin_bytes, values: [50000, 200000]}
metrics: [jct_us]
`
	p := filepath.Join(dir, "sweep.yaml")
	require.NoError(t, os.WriteFile(p, []byte(sweep), 0o644))
	s, err := LoadSweep(p)
	require.NoError(t, err, "the working directory is %s, not the sweep's", must(os.Getwd()))
	st, err := Run(context.Background(), s, RunOptions{Dir: t.TempDir(), Workers: 1})
	require.NoError(t, err)
	assert.Equal(t, 2, st.Evaluated)

	require.NoError(t, os.WriteFile(p, []byte(strings.Replace(sweep, "workload.bytes: 4096", "topology.leaves: zero", 1)), 0o644))
	_, err = LoadSweep(p)
	require.Error(t, err)
	assert.Contains(t, err.Error(), p+":5: base: "+filepath.Join(dir, "small.yaml")+" with topology.leaves=zero")
	assert.NotContains(t, err.Error(), "default_scenario")

	require.NoError(t, os.WriteFile(p, []byte(strings.Replace(sweep, "small.yaml", "nonesuch.yaml", 1)), 0o644))
	_, err = LoadSweep(p)
	require.ErrorContains(t, err, p+":4: base: open "+filepath.Join(dir, "nonesuch.yaml")+": no such file")
}

// smallScenario is a scenario file of 4 hosts on 2 leaves.
const smallScenario = `name: small
seed: 1
topology: {kind: leafspine, leaves: 2, spines: 2, hosts_per_leaf: 2}
switch:
  ecn: {kmin_bytes: 100000, kmax_bytes: 400000, pmax: 0.2}
  pfc_classes: [0]
nic: {cc: dcqcn}
workload: {kind: permutation, bytes: 65536}
`

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// An empty scenario value is the embedded default scenario, as an absent
// one is, not the sweep file's directory read as a file.
func TestScenarioSweepEmptyScenarioIsTheDefault(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "sweep.yaml")
	require.NoError(t, os.WriteFile(p, []byte(`name: empty
evaluator: scenario
base:
  scenario: ""
  topology.hosts_per_leaf: 2
design: {kind: grid}
parameters:
  - {name: workload.bytes, values: [4096, 8192]}
metrics: [jct_us]
`), 0o644))
	_, err := LoadSweep(p)
	require.NoError(t, err)
	e := scenarioEvaluator{dir: dir}
	empty, err := e.scenario(append([]Assignment{{scenarioFileParam, ""}}, small...))
	require.NoError(t, err)
	absent, err := e.scenario(small)
	require.NoError(t, err)
	assert.Equal(t, absent.Name, empty.Name)
}
