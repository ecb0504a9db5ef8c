package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/fabric"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// errRan is what the run command's runs return while noRuns holds.
var errRan = errors.New("the run began")

// noRuns makes the run command's runs end at once, with errRan, for the
// tests of what the command refuses before it runs anything.
func noRuns(t *testing.T) {
	t.Helper()
	complete := completeRun
	t.Cleanup(func() { completeRun = complete })
	completeRun = func(*fabric.Run, context.Context, rtlmodel.Time, rtlmodel.Time, func(int)) error {
		return errRan
	}
}

// Every output the run writes is checked before the run: a file that
// cannot be created is refused with its flag named, before the model is
// built, and the check leaves no file behind and an existing one as it
// was.
func TestRunRefusesAnOutputItCannotCreateBeforeRunning(t *testing.T) {
	noRuns(t)
	dir := t.TempDir()
	old := filepath.Join(dir, "old.json")
	require.NoError(t, os.WriteFile(old, []byte("kept"), 0o644))
	// a name longer than any file system allows: no file, even for root
	long := filepath.Join(dir, strings.Repeat("x", 300))
	for _, flag := range runOutputFiles {
		// beside an output to an existing file, which stays as it is
		beside := "--json"
		if flag == "json" {
			beside = "--csv"
		}
		_, err := runCLI(t, "run", beside, old, "--"+flag, long)
		require.NotErrorIs(t, err, errRan, flag)
		require.EqualError(t, err, "--"+flag+" "+long+": file name too long")
	}
	_, err := runCLI(t, "run", "--json", old, "--plots", long)
	require.EqualError(t, err, "--plots "+long+": file name too long")
	if st, err := os.Stat("/sys"); err == nil && st.IsDir() {
		// sysfs: no file can be created in it
		_, err = runCLI(t, "run", "--json", "/sys/results.json")
		require.EqualError(t, err, "--json /sys/results.json: permission denied")
		_, err = runCLI(t, "run", "--plots", "/sys")
		require.EqualError(t, err, "--plots /sys: cannot write a file in it: permission denied")
	}
	b, err := os.ReadFile(old)
	require.NoError(t, err)
	require.Equal(t, "kept", string(b))
	left, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, left, 1, "the checks left files behind: %v", left)
}

// Two outputs to one file, by one name or two, are refused before the
// run, naming both flags; a device such as /dev/null takes any number.
func TestRunRefusesTwoOutputsToOneFile(t *testing.T) {
	noRuns(t)
	dir := t.TempDir()
	same := filepath.Join(dir, "same")
	_, err := runCLI(t, "run", "--json", same, "--csv", same)
	require.EqualError(t, err, "--json "+same+" and --csv "+same+": the same file; each output needs one of its own")
	other := filepath.Join(dir, ".", "sub", "..", "same")
	require.NoError(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	_, err = runCLI(t, "run", "--stats-json", same, "--trace", other)
	require.EqualError(t, err, "--stats-json "+same+" and --trace "+other+": the same file; each output needs one of its own")
	require.NoError(t, os.WriteFile(same, nil, 0o644))
	link := filepath.Join(dir, "link")
	require.NoError(t, os.Link(same, link))
	_, err = runCLI(t, "run", "--memprofile", link, "--stats-csv", same)
	require.EqualError(t, err, "--stats-csv "+same+" and --memprofile "+link+": the same file; each output needs one of its own")
	_, err = runCLI(t, "run", "--json", "/dev/null", "--csv", "/dev/null")
	require.ErrorIs(t, err, errRan)
}

// An output that fails as the run writes it, after the run, names its
// flag. (The runs end at once: the outputs are then those of nothing
// run, written as those of a run stopped at its time limit.)
func TestRunOutputErrorsNameTheFlag(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full to make the writes fail")
	}
	complete := completeRun
	t.Cleanup(func() { completeRun = complete })
	completeRun = func(*fabric.Run, context.Context, rtlmodel.Time, rtlmodel.Time, func(int)) error { return nil }
	for _, flag := range []string{"json", "csv", "stats-json", "stats-csv", "memprofile"} {
		_, err := runCLI(t, "run", "--"+flag, "/dev/full")
		require.ErrorContains(t, err, "--"+flag+" /dev/full: no space left on device")
	}
}

// Two outputs to one file that does not exist yet are refused however
// they reach it: one through a symbolic link to the other's name, or
// through a link to a directory on the way.
func TestRunRefusesTwoOutputsToOneNewFileThroughLinks(t *testing.T) {
	noRuns(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "r.json")
	link := filepath.Join(dir, "l")
	require.NoError(t, os.Symlink("r.json", link))
	_, err := runCLI(t, "run", "--json", link, "--csv", file)
	require.EqualError(t, err, "--json "+link+" and --csv "+file+": the same file; each output needs one of its own")
	// a link to a link, and an absolute target
	chain := filepath.Join(dir, "chain")
	require.NoError(t, os.Symlink(link, chain))
	_, err = runCLI(t, "run", "--stats-json", file, "--trace", chain)
	require.EqualError(t, err, "--stats-json "+file+" and --trace "+chain+": the same file; each output needs one of its own")

	here := filepath.Join(dir, "here")
	require.NoError(t, os.Symlink(".", here))
	viaDir := filepath.Join(here, "x.json")
	_, err = runCLI(t, "run", "--json", filepath.Join(dir, "x.json"), "--csv", viaDir)
	require.EqualError(t, err, "--json "+filepath.Join(dir, "x.json")+" and --csv "+viaDir+": the same file; each output needs one of its own")
	// a directory that does not exist yet, under a link
	require.NoError(t, os.Mkdir(filepath.Join(dir, "p"), 0o755))
	_, err = runCLI(t, "run", "--plots", filepath.Join(here, "p", "new"), "--json", filepath.Join(dir, "p", "new"))
	require.ErrorContains(t, err, "the same file")

	// distinct files are not mistaken for one, nor is /dev/null refused
	_, err = runCLI(t, "run", "--json", link, "--csv", filepath.Join(here, "other.csv"), "--stats-csv", "/dev/null", "--stats-json", "/dev/null")
	require.ErrorIs(t, err, errRan)
	left, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, left, 4, "the checks left files behind: %v", left)
}

// An output in the --plots directory under the name of a plot the run
// draws there is refused, naming the plot, since the plot would replace
// it; another name in that directory is an output like any other.
func TestRunRefusesAnOutputWhereItDrawsAPlot(t *testing.T) {
	noRuns(t)
	dir := t.TempDir()
	plots := filepath.Join(dir, "pd")
	for _, name := range plotFiles {
		path := filepath.Join(plots, name)
		require.NoError(t, os.MkdirAll(plots, 0o755))
		_, err := runCLI(t, "run", "--plots", plots, "--json", path)
		require.EqualError(t, err, "--json "+path+": the file of the plot "+name+" that --plots "+plots+" writes; each output needs one of its own")
		// the directory by another name
		require.NoError(t, os.Remove(plots))
		_, err = runCLI(t, "run", "--stats-csv", filepath.Join(dir, name), "--plots", dir+"/.")
		require.ErrorContains(t, err, "--stats-csv "+filepath.Join(dir, name)+": the file of the plot "+name)
	}
	require.NoError(t, os.Mkdir(plots, 0o755))
	_, err := runCLI(t, "run", "--plots", plots, "--json", filepath.Join(plots, "results.json"))
	require.ErrorIs(t, err, errRan)
}

// The per-flow CSV names each flow's operation, and the JSON names it
// for the flows that are not writes.
func TestRunFlowOutputsNameTheOperation(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "t.csv")
	require.NoError(t, os.WriteFile(trace, []byte("src,dst,bytes,start_ns,op\n0,1,4096,0,read\n1,0,4096,0,\n"), 0o644))
	scenario := filepath.Join(dir, "s.yaml")
	require.NoError(t, os.WriteFile(scenario, []byte("name: ops\ntopology: {kind: leafspine, leaves: 2, spines: 2, hosts_per_leaf: 1}\nworkload: {kind: csv, file: t.csv}\n"), 0o644))
	csvOut, jsonOut := filepath.Join(dir, "r.csv"), filepath.Join(dir, "r.json")
	_, err := runCLI(t, "run", "--csv", csvOut, "--json", jsonOut, scenario)
	require.NoError(t, err)
	rows, err := csv.NewReader(mustOpen(t, csvOut)).ReadAll()
	require.NoError(t, err)
	require.Equal(t, []string{"id", "src", "dst", "bytes", "job", "start_ns", "fct_ns", "op"}, rows[0])
	require.Equal(t, "read", rows[1][7])
	require.Equal(t, "write", rows[2][7])
	var res struct {
		PerFlow []map[string]any `json:"per_flow"`
	}
	data, err := os.ReadFile(jsonOut)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &res))
	require.Equal(t, "read", res.PerFlow[0]["op"])
	require.NotContains(t, res.PerFlow[1], "op")
}

func mustOpen(t *testing.T, path string) *os.File {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	t.Cleanup(func() { f.Close() })
	return f
}
