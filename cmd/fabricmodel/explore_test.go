package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const budgetSweep = `name: budget-clocks
evaluator: budget
seed: 1
base: {latency.payload: 64}
design: {kind: grid}
parameters:
  - {name: switch.mmu_cycles, values: ['32', '64', '128']}
  - {name: nic.clock_ps, values: ['667', '800', '1000']}
metrics: [switch_ns, e2e_ns, e2e_miss_ns]
pareto: {x: switch_ns, x_goal: min, y: e2e_ns, y_goal: min}
plots:
  - {x: nic.clock_ps, y: e2e_ns, series: switch.mmu_cycles, file: e2e.png}
`

func TestExploreRunShardMergeReport(t *testing.T) {
	dir := t.TempDir()
	sweep := filepath.Join(dir, "clocks.yaml")
	require.NoError(t, os.WriteFile(sweep, []byte(budgetSweep), 0o644))

	out, err := runCLI(t, "explore", "run", "--shard", "0/2", sweep)
	require.NoError(t, err)
	assert.Contains(t, out, "shard 0/2: 5 points, 0 already done, 5 evaluated, 0 failed")
	_, err = runCLI(t, "explore", "merge", sweep)
	require.ErrorContains(t, err, "missing point")
	out, err = runCLI(t, "explore", "run", "-j", "2", sweep)
	require.NoError(t, err)
	assert.Contains(t, out, "9 points, 5 already done, 4 evaluated, 0 failed")
	assert.Contains(t, out, filepath.Join(dir, "clocks.out", "points"))

	out, err = runCLI(t, "explore", "merge", sweep)
	require.NoError(t, err)
	assert.Contains(t, out, "merged 9 points")
	csv, err := os.ReadFile(filepath.Join(dir, "clocks.out", "results.csv"))
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(csv)), "\n")
	require.Len(t, lines, 10)
	assert.Equal(t, "id,index,seed,switch.mmu_cycles,nic.clock_ps,switch_ns,e2e_ns,e2e_miss_ns", lines[0])

	out, err = runCLI(t, "explore", "report", sweep)
	require.NoError(t, err)
	assert.Contains(t, out, "budget-clocks: 9 points")
	assert.Contains(t, out, "Pareto front of switch_ns (min) and e2e_ns (min): 1 of 9 points")
	data, err := os.ReadFile(filepath.Join(dir, "clocks.out", "e2e.png"))
	require.NoError(t, err)
	_, err = png.Decode(bytes.NewReader(data))
	require.NoError(t, err)
}

// The script holds the array, the shard each task runs and the extra
// #SBATCH options, each taken whole: an option's own commas
// (--mail-type=END,FAIL) do not split it in two.
func TestExploreSlurmWritesTheArrayScript(t *testing.T) {
	dir := t.TempDir()
	sweep := filepath.Join(dir, "clocks.yaml")
	require.NoError(t, os.WriteFile(sweep, []byte(budgetSweep), 0o644))
	out, err := runCLI(t, "explore", "slurm", "--shards", "3", "--binary", "/opt/fabricmodel", "--out", filepath.Join(dir, "o"),
		"--sbatch", "--mail-type=END,FAIL", "--sbatch", "--mem=4G", sweep)
	require.NoError(t, err)
	assert.Contains(t, out, "3 array tasks")
	script, err := os.ReadFile(filepath.Join(dir, "o", "explore.sbatch"))
	require.NoError(t, err)
	assert.Contains(t, string(script), "#SBATCH --array=0-2")
	assert.Contains(t, string(script), "#SBATCH --mail-type=END,FAIL\n#SBATCH --mem=4G\n")
	assert.Contains(t, string(script), `/opt/fabricmodel explore run --out `+filepath.Join(dir, "o")+` --workers 1 --shard "${SLURM_ARRAY_TASK_ID}/3" `+sweep)
}

// Flag values that would end an #SBATCH line and start a shell command
// are refused, naming the flag, and no script is written.
func TestExploreSlurmRefusesInjectedLines(t *testing.T) {
	dir := t.TempDir()
	sweep := filepath.Join(dir, "clocks.yaml")
	require.NoError(t, os.WriteFile(sweep, []byte(budgetSweep), 0o644))
	for _, c := range []struct{ flag, value, want string }{
		{"--partition", "a\nrm -rf /tmp/should_not", `--partition "a\nrm -rf /tmp/should_not": holds the control character '\n'`},
		{"--time", "1:00\r\nrm -rf /", `--time "1:00\r\nrm -rf /"`},
		{"--sbatch", "x\ny", `--sbatch "x\ny"`},
		{"--sbatch", "rm -rf /", `--sbatch "rm -rf /": want an sbatch option`},
		{"--binary", "/bin/x\nid", `--binary "/bin/x\nid"`},
	} {
		out := filepath.Join(dir, "o")
		_, err := runCLI(t, "explore", "slurm", "--out", out, c.flag, c.value, sweep)
		require.ErrorContains(t, err, c.want)
		_, err = os.Stat(filepath.Join(out, "explore.sbatch"))
		assert.True(t, os.IsNotExist(err), "%s %q: a script was written", c.flag, c.value)
	}
}

// A plot that cannot be written names the plot and the --plots directory
// it was to go to, not only the failed mkdir.
func TestExploreReportNamesAPlotItCannotWrite(t *testing.T) {
	dir := t.TempDir()
	sweep := filepath.Join(dir, "clocks.yaml")
	require.NoError(t, os.WriteFile(sweep, []byte(budgetSweep), 0o644))
	_, err := runCLI(t, "explore", "run", sweep)
	require.NoError(t, err)
	blocker := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(blocker, nil, 0o644))
	plots := filepath.Join(blocker, "plots")
	_, err = runCLI(t, "explore", "report", "--plots", plots, sweep)
	require.ErrorContains(t, err, "--plots "+plots+": plot 0 of "+sweep+" (e2e_ns against nic.clock_ps) to "+filepath.Join(plots, "e2e.png")+": mkdir "+blocker+": not a directory")
}

func TestExploreErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	require.NoError(t, os.WriteFile(bad, []byte(strings.Replace(budgetSweep, "seed: 1", "seed: 1\nsamples: 3", 1)), 0o644))
	_, err := runCLI(t, "explore", "run", bad)
	require.ErrorContains(t, err, bad+":4: samples: unknown key; a sweep takes name, evaluator, seed, base, design, parameters, metrics, pareto, plots")
	_, err = runCLI(t, "explore", "run", "--shard", "2/2", bad)
	require.Error(t, err)
	_, err = runCLI(t, "explore", "run")
	require.ErrorContains(t, err, "want one sweep file")

	out, err := runCLI(t, "explore", "list")
	require.NoError(t, err)
	for _, want := range []string{"evaluator budget", "evaluator incast", "switch.mmu_cycles", "e2e_miss_ns", "ecn.kmin_bytes", "fct_p99_us"} {
		assert.Contains(t, out, want)
	}
}

// An output directory that is a file is refused naming --out (or, with no
// --out, where the directory's name came from), before any point runs.
func TestExploreNamesAnOutputDirectoryThatIsAFile(t *testing.T) {
	dir := t.TempDir()
	sweep := filepath.Join(dir, "clocks.yaml")
	require.NoError(t, os.WriteFile(sweep, []byte(budgetSweep), 0o644))
	file := filepath.Join(dir, "afile")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	for _, sub := range []string{"run", "slurm", "merge", "report"} {
		out, err := runCLI(t, "explore", sub, "--out", file, sweep)
		require.EqualError(t, err, "--out "+file+": not a directory", sub)
		assert.NotContains(t, out, "evaluated", sub)
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "clocks.out"), nil, 0o644))
	_, err := runCLI(t, "explore", "run", sweep)
	require.EqualError(t, err, "output directory "+filepath.Join(dir, "clocks.out")+" (the sweep file's name with .out; choose another with --out): not a directory")
	require.NoError(t, os.Mkdir(filepath.Join(dir, "d"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "d", "points"), nil, 0o644))
	_, err = runCLI(t, "explore", "run", "--out", filepath.Join(dir, "d"), sweep)
	require.ErrorContains(t, err, "--out "+filepath.Join(dir, "d")+": mkdir ")
}
