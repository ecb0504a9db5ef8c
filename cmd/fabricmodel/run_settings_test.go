package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// run --set gives the results of the scenario file edited by hand, byte
// for byte but for the JSON's list of the settings, which the table shows
// too; --seed still overrides the seed after them.
func TestRunSettingsEqualTheFileEdited(t *testing.T) {
	dir := t.TempDir()
	const topology = "topology:\n  kind: leafspine\n  leaves: 2\n  spines: 2\n  hosts_per_leaf: 2\n"
	base := filepath.Join(dir, "base.yaml")
	require.NoError(t, os.WriteFile(base, []byte("name: s\nseed: 3\n"+topology+"workload:\n  kind: permutation\n  bytes: 16384\n"), 0o644))
	edited := filepath.Join(dir, "edited.yaml")
	require.NoError(t, os.WriteFile(edited, []byte("name: s\nseed: 9\n"+topology+"nic:\n  cc: swift\n  mtu: 1024\n"+
		"workload:\n  kind: alltoall\n  bytes: 16384\n"), 0o644))

	out, err := runCLI(t, "run", "--json", filepath.Join(dir, "set.json"), "--set", "nic.cc=swift", "--set", "nic.mtu=1024",
		"--set", "workload.kind=alltoall", "--set", "seed=5", "--seed", "9", base)
	require.NoError(t, err)
	require.Regexp(t, `settings +│ nic.cc=swift, nic.mtu=1024, workload.kind=alltoall, seed=5 +│`, out)
	_, err = runCLI(t, "run", "--json", filepath.Join(dir, "edited.json"), edited)
	require.NoError(t, err)

	var set, want map[string]any
	for path, v := range map[string]*map[string]any{"set.json": &set, "edited.json": &want} {
		b, err := os.ReadFile(filepath.Join(dir, path))
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(b, v))
	}
	require.Equal(t, []any{"nic.cc=swift", "nic.mtu=1024", "workload.kind=alltoall", "seed=5"}, set["settings"])
	require.NotContains(t, want, "settings", "a run without settings lists none")
	delete(set, "settings")
	require.Equal(t, want, set)
	require.EqualValues(t, 9, set["seed"])
}

// A setting the command line cannot read or the scenario refuses stops
// the run before the model is built, naming the setting; an output that
// is the trace a setting names is refused as one the file names is. A
// setting of a mapping replaces the whole mapping.
func TestRunSettingErrors(t *testing.T) {
	noRuns(t)
	dir := t.TempDir()
	trace := filepath.Join(dir, "flows.csv")
	require.NoError(t, os.WriteFile(trace, []byte("src,dst,bytes,start_ns\n0,1,4096,0\n"), 0o644))
	scenario := filepath.Join(dir, "s.yaml")
	require.NoError(t, os.WriteFile(scenario, []byte("name: s\ntopology:\n  kind: leafspine\n  leaves: 2\n  spines: 2\n  hosts_per_leaf: 2\n"+
		"workload:\n  kind: permutation\n  bytes: 4096\n"), 0o644))
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--set", "nic.mtu"}, `--set "nic.mtu": want KEY=VALUE (nic.cc=hpcc)`},
		{[]string{"--set", "nic.mtu=1024", "--set", "nic.mtu=2048"}, "--set nic.mtu=2048: nic.mtu set twice (first --set nic.mtu=1024)"},
		{[]string{"--set", "nic.mtu=9000", scenario}, scenario + " with nic.mtu=9000: nic.mtu 9000: payload bytes per packet, 256 to 4096 (0: the default)"},
		{[]string{"--set", "switch.pfc_classes=[0,9]"}, "default_scenario.yaml with switch.pfc_classes=[0,9]: switch.pfc_classes: class 9"},
		{[]string{"--csv", trace, "--set", "workload={kind: csv, file: flows.csv}", scenario},
			"--csv " + trace + ": the trace file " + trace + " that " + scenario + " reads (workload.file); the output would overwrite it"},
	} {
		_, err := runCLI(t, append([]string{"run"}, c.args...)...)
		require.ErrorContains(t, err, c.want, "%q", c.args)
	}
	_, err := runCLI(t, "run", "--set", "workload={kind: csv, file: flows.csv}", scenario)
	require.ErrorIs(t, err, errRan, "the setting's trace is read from beside the scenario")
}
