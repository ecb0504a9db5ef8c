package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// An output that is a file the run reads, the scenario file or the trace
// of a csv workload, by its name or through a link, is refused before
// the run, naming the flag and the file it would overwrite, which is left
// as it was.
func TestRunRefusesAnOutputThatIsAnInput(t *testing.T) {
	noRuns(t)
	dir := t.TempDir()
	const topology = "topology:\n  kind: leafspine\n  leaves: 2\n  spines: 2\n  hosts_per_leaf: 2\n"
	scenario := filepath.Join(dir, "s.yaml")
	require.NoError(t, os.WriteFile(scenario, []byte("name: s\n"+topology+"workload:\n  kind: permutation\n  bytes: 4096\n"), 0o644))
	traced := filepath.Join(dir, "t.yaml")
	require.NoError(t, os.WriteFile(traced, []byte("name: t\n"+topology+"workload:\n  kind: csv\n  file: flows.csv\n"), 0o644))
	trace := filepath.Join(dir, "flows.csv")
	require.NoError(t, os.WriteFile(trace, []byte("src,dst,bytes,start_ns\n0,1,4096,0\n"), 0o644))
	link := filepath.Join(dir, "in")
	require.NoError(t, os.Symlink("s.yaml", link))

	for _, flag := range runOutputFiles {
		_, err := runCLI(t, "run", "--"+flag, scenario, scenario)
		require.EqualError(t, err, "--"+flag+" "+scenario+": the scenario file "+scenario+"; the output would overwrite it")
	}
	_, err := runCLI(t, "run", "--json", link, scenario)
	require.EqualError(t, err, "--json "+link+": the scenario file "+scenario+"; the output would overwrite it")
	_, err = runCLI(t, "run", "--json", scenario, link)
	require.EqualError(t, err, "--json "+scenario+": the scenario file "+link+"; the output would overwrite it")
	_, err = runCLI(t, "run", "--csv", trace, traced)
	require.EqualError(t, err, "--csv "+trace+": the trace file "+trace+" that "+traced+" reads (workload.file); the output would overwrite it")
	// the scenario named from another directory: the trace is beside it
	t.Chdir(t.TempDir())
	_, err = runCLI(t, "run", "--stats-csv", filepath.Join(dir, ".", "flows.csv"), traced)
	require.ErrorContains(t, err, "--stats-csv "+filepath.Join(dir, "flows.csv")+": the trace file "+trace)
	// a plot of --plots
	plotted := filepath.Join(dir, fctPlotFile)
	require.NoError(t, os.Rename(scenario, plotted))
	_, err = runCLI(t, "run", "--plots", dir, plotted)
	require.EqualError(t, err, "--plots "+dir+": its plot "+fctPlotFile+" would overwrite the scenario file "+plotted)

	b, err := os.ReadFile(trace)
	require.NoError(t, err)
	require.Equal(t, "src,dst,bytes,start_ns\n0,1,4096,0\n", string(b))
	_, err = runCLI(t, "run", "--json", filepath.Join(dir, "r.json"), "--csv", filepath.Join(dir, "r.csv"), traced)
	require.ErrorIs(t, err, errRan)
}
