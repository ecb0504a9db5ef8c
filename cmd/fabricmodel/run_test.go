package main

import (
	"os"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Mistakes in the run's flags are found before the fabric is built, so a
// long run never ends in an output it cannot write; an existing result
// file is left alone when the run does not start.
func TestRunRejectsBadFlagsBeforeRunning(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "old.json")
	require.NoError(t, os.WriteFile(old, []byte("kept"), 0o644))
	bad := filepath.Join(dir, "bad.yaml")
	require.NoError(t, os.WriteFile(bad, []byte("name: x\ntopology:\n  kind: leafspine\n  leaves: 2\n  spines: 2\n  hosts_per_leaf: 2\n"+
		"workload:\n  kind: permutation\n  bytes: 1000\nnic:\n  mtu: 9000\n"), 0o644))
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--step-us", "-1"}, "--step-us -1: a positive number"},
		{[]string{"run", "--step-us", "0"}, "--step-us 0: a positive number"},
		{[]string{"run", "--json", filepath.Join(dir, "absent", "r.json")}, "no directory " + filepath.Join(dir, "absent")},
		{[]string{"run", "--csv", dir}, "a directory, not a file"},
		{[]string{"run", "--stats-json", dir}, "--stats-json " + dir + ": a directory, not a file"},
		{[]string{"run", "--stats-csv", filepath.Join(dir, "absent", "s.csv")}, "no directory " + filepath.Join(dir, "absent")},
		{[]string{"run", "a.yaml", "b.yaml"}, "one scenario file at a time"},
		{[]string{"run", "--json", old, bad}, bad + ":11: nic.mtu 9000"},
		{[]string{"run", "--trace", filepath.Join(dir, "absent", "t.jsonl")}, "--trace " + filepath.Join(dir, "absent", "t.jsonl") + ": no directory"},
		{[]string{"run", "--trace-flows", "2"}, "--trace-flows 2: without --trace or --pcap there is no trace to write"},
		{[]string{"run", "--trace", filepath.Join(dir, "t.jsonl"), "--trace-flows", "1,x"}, `--trace-flows 1,x: "x" is not a flow ID`},
		{[]string{"run", "--trace", filepath.Join(dir, "t.jsonl"), "--trace-flows", "5-2"}, `"5-2" is not a range of flow IDs`},
		{[]string{"run", "--trace", filepath.Join(dir, "t.jsonl"), "--trace-flows", "30-33"}, "--trace-flows 30-33: no flow 32 (the run has flows 0 to 31)"},
	} {
		_, err := runCLI(t, c.args...)
		require.ErrorContains(t, err, c.want, "%v", c.args)
	}
	b, err := os.ReadFile(old)
	require.NoError(t, err)
	require.Equal(t, "kept", string(b))
}

// A CPU profile that cannot be started ends the run before it begins,
// naming the flag and the file, and leaves neither the profile nor an
// empty trace behind. (The test's own profile is running: the checks
// before the build pass, the profile's start fails.)
func TestRunCPUProfileFailureLeavesNoTrace(t *testing.T) {
	dir := t.TempDir()
	own, err := os.Create(filepath.Join(dir, "own.prof"))
	require.NoError(t, err)
	defer own.Close()
	if err := pprof.StartCPUProfile(own); err == nil {
		defer pprof.StopCPUProfile()
	} // else the test binary's own -cpuprofile is running
	prof := filepath.Join(dir, "cpu.prof")
	trace := filepath.Join(dir, "t.jsonl")
	_, err = runCLI(t, "run", "--trace", trace, "--trace-flows", "1", "--cpuprofile", prof)
	require.ErrorContains(t, err, "--cpuprofile "+prof+": cpu profiling already in use")
	for _, path := range []string{prof, trace} {
		_, err = os.Stat(path)
		require.ErrorIs(t, err, os.ErrNotExist, "%s is left", path)
	}
}

// --trace writes the chosen flows' frames as a trace, as the run goes;
// the flows are listed and ranged as the CSV output numbers them. The
// trace does not depend on how often it is written.
func TestRunWritesTheFlowTrace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.jsonl")
	_, err := runCLI(t, "run", "--trace", path, "--trace-flows", "3, 1-2,3")
	require.NoError(t, err)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	fine := filepath.Join(t.TempDir(), "fine.jsonl")
	_, err = runCLI(t, "run", "--step-us", "1", "--trace", fine, "--trace-flows", "1-3")
	require.NoError(t, err)
	bf, err := os.ReadFile(fine)
	require.NoError(t, err)
	require.Equal(t, string(b), string(bf), "written after every microsecond, the trace differs")
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	require.Equal(t, `{"schema":"fabricmodel.trace","version":1}`, lines[0])
	require.Greater(t, len(lines), 3*512*11, "three 2 MB flows of 4 KB packets over eleven links each")
	spans, err := parseFlowIDs("3, 1-2,3")
	require.NoError(t, err)
	ids, err := flowIDs(spans, 32)
	require.NoError(t, err)
	require.Equal(t, []int{3, 1, 2}, ids)
}

// A run that reaches its scenario's max_time_us before every flow
// completes prints the table of what ran, labels the completion times and
// goodput as the completed flows', writes its outputs, and ends with an
// error saying where it stopped; with no flow completed the table says so
// instead of printing zero times.
func TestRunStoppedByItsTimeLimitSaysSo(t *testing.T) {
	base, err := os.ReadFile("../../docs/scenarios/exp4_degraded_spray.yaml")
	require.NoError(t, err)
	dir := t.TempDir()
	for _, c := range []struct {
		limitUS      int
		done         string
		fct, goodput string
	}{
		{5, "0 of 32", "│ FCT p50 / p99 / max  ", "│ goodput  "},
		{150, "18 of 32", "│ FCT p50 / p99 / max (completed flows) │", "│ goodput (completed flows)"},
	} {
		file := filepath.Join(dir, "limited.yaml")
		require.NoError(t, os.WriteFile(file, append(base, []byte("max_time_us: "+strconv.Itoa(c.limitUS)+"\n")...), 0o644))
		js := filepath.Join(dir, "r.json")
		out, err := runCLI(t, "run", "--json", js, file)
		require.ErrorContains(t, err, "stopped at the scenario's max_time_us ("+strconv.Itoa(c.limitUS)+" us simulated) with "+c.done+" flows complete")
		require.Contains(t, out, c.fct)
		require.Contains(t, out, c.goodput)
		require.Contains(t, out, "speed: ")
		if c.limitUS == 5 {
			require.Contains(t, out, "no flow completed")
			require.NotContains(t, out, "0.00 us / 0.00 us")
		}
		b, err := os.ReadFile(js)
		require.NoError(t, err)
		require.Contains(t, string(b), `"flows": 32`)
	}
}
