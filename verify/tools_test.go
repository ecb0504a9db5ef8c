package verify

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// needTools fails the test in CI (CI=true) when a tool is missing, and
// skips it loudly elsewhere.
func needTools(t testing.TB, names ...string) {
	t.Helper()
	for _, n := range names {
		if _, err := exec.LookPath(n); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is not installed; CI installs it with scripts/install-test-deps.sh", n)
			}
			t.Skipf("SKIPPED: %s is not installed (run scripts/install-test-deps.sh as root); this test fails when CI=true", n)
		}
	}
}

// rtlDir is the directory of the reference RTL.
const rtlDir = "testdata/rtl"

// vectorCounts reads the line counts of a vectors directory.
func vectorCounts(t testing.TB, dir string) (nstim, nexp int) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "vectors.json"))
	require.NoError(t, err)
	var mf manifest
	require.NoError(t, json.Unmarshal(b, &mf))
	return mf.Input.Lines, mf.Output.Lines
}

// writeVectors runs the block's golden model over inputs and writes the
// vectors into a new directory.
func writeVectors(t testing.TB, block string, params map[string]uint64, inputs []Txn) (*Vectors, string) {
	t.Helper()
	b, err := LookupBlock(block)
	require.NoError(t, err)
	p, err := b.Resolve(params)
	require.NoError(t, err)
	v, err := ComputeVectors(b, p, inputs)
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, v.WriteDir(dir))
	return v, dir
}

// plusargs are the simulator arguments that point the tops at a vector
// directory and a VCD file.
func plusargs(t testing.TB, vecDir, vcdPath string) []string {
	nstim, nexp := vectorCounts(t, vecDir)
	return []string{
		"+stim=" + filepath.Join(vecDir, "stimulus.hex"), "+nstim=" + strconv.Itoa(nstim),
		"+exp=" + filepath.Join(vecDir, "expected.hex"), "+nexp=" + strconv.Itoa(nexp),
		"+vcd=" + vcdPath,
	}
}

// rtlSources lists a block's Verilog with the shared modules.
func rtlSources(t testing.TB, block string) []string {
	t.Helper()
	own, err := filepath.Glob(filepath.Join(rtlDir, block, "*.v"))
	require.NoError(t, err)
	require.NotEmpty(t, own)
	return append([]string{filepath.Join(rtlDir, "common", "vec_source.v"), filepath.Join(rtlDir, "common", "vec_frame_source.v"),
		filepath.Join(rtlDir, "common", "vec_sink.v")}, own...)
}

// runIverilog compiles the block's top under tb.v with the given defines,
// runs it on a vector directory and returns the VCD path and the
// simulator's output.
func runIverilog(t testing.TB, block, top string, defines []string, vecDir string) (string, string) {
	t.Helper()
	needTools(t, "iverilog", "vvp")
	work := t.TempDir()
	sim := filepath.Join(work, "sim.vvp")
	args := []string{"-g2005", "-Wall", "-o", sim, "-DTOP=" + top}
	for _, d := range defines {
		args = append(args, "-D"+d)
	}
	args = append(args, filepath.Join(rtlDir, "common", "tb.v"))
	args = append(args, rtlSources(t, block)...)
	out, err := exec.Command("iverilog", args...).CombinedOutput()
	require.NoError(t, err, "iverilog: %s", out)
	vcdPath := filepath.Join(work, "dump.vcd")
	run := append([]string{"-n", sim}, plusargs(t, vecDir, vcdPath)...)
	out, err = exec.Command("vvp", run...).CombinedOutput()
	require.NoError(t, err, "vvp: %s", out)
	require.Contains(t, string(out), "VECTORS: ", "vvp: %s", out)
	require.NotContains(t, string(out), "TIMEOUT", "vvp: %s", out)
	return vcdPath, string(out)
}

// tbErrors returns the error count the testbench printed.
func tbErrors(t testing.TB, out string) int {
	t.Helper()
	i := strings.Index(out, "outputs, ")
	require.GreaterOrEqual(t, i, 0, out)
	f := strings.Fields(out[i+len("outputs, "):])
	require.NotEmpty(t, f, out)
	n, err := strconv.Atoi(f[0])
	require.NoError(t, err, out)
	return n
}
