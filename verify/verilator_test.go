package verify

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// verilatorBuilds caches the Verilator builds of fcs_top per test binary,
// one per set of defines (a build takes seconds to tens of seconds; the
// tests that need the same one share it). They live under verilatorDir,
// removed by TestMain.
var (
	verilatorMu     sync.Mutex
	verilatorDir    string
	verilatorBuilds = map[string]*verilatorBuild{}
)

type verilatorBuild struct {
	bin string
	out []byte
	err error
}

// buildVerilatorFCS builds fcs_top with the classic flow (--cc --trace
// --exe --build and the C++ harness), with the given define, once.
func buildVerilatorFCS(t *testing.T, define string) string {
	t.Helper()
	needTools(t, "verilator", "make", "g++")
	verilatorMu.Lock()
	defer verilatorMu.Unlock()
	b, ok := verilatorBuilds[define]
	if !ok {
		b = &verilatorBuild{}
		verilatorBuilds[define] = b
		if verilatorDir == "" {
			verilatorDir, b.err = os.MkdirTemp("", "verify-verilator-")
		}
		if b.err == nil {
			b.bin, b.out, b.err = verilate(verilatorDir, define)
		}
	}
	require.NoError(t, b.err, "verilator: %s", b.out)
	return b.bin
}

func verilate(root, define string) (string, []byte, error) {
	name := "fcs"
	if define != "" {
		name += "_" + define
	}
	obj := filepath.Join(root, name)
	abs := func(p string) string { a, _ := filepath.Abs(p); return a }
	args := []string{"--cc", "--trace", "--exe", "--build", "-j", "2", "--prefix", "Vtop",
		"--top-module", "fcs_top", "-Wno-fatal", "-Mdir", obj, "-o", "sim"}
	if define != "" {
		args = append(args, "-D"+define)
	}
	args = append(args,
		abs(filepath.Join(rtlDir, "common", "harness.cpp")),
		abs(filepath.Join(rtlDir, "common", "vec_frame_source.v")),
		abs(filepath.Join(rtlDir, "common", "vec_sink.v")),
		abs(filepath.Join(rtlDir, "fcs", "fcs_axis.v")),
		abs(filepath.Join(rtlDir, "fcs", "fcs_top.v")))
	cmd := exec.Command("verilator", args...)
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	return filepath.Join(obj, "sim"), out, err
}

// runVerilatorFCS runs a build on frames and checks its VCD with the fcs
// map under Verilator's scope.
func runVerilatorFCS(t *testing.T, define string, frames []Txn) (*Result, string) {
	bin := buildVerilatorFCS(t, define)
	_, dir := writeVectors(t, "fcs", nil, frames)
	vcdPath := filepath.Join(t.TempDir(), "dump.vcd")
	out, _ := exec.Command(bin, plusargs(t, dir, vcdPath)...).CombinedOutput()
	m := loadRTLMap(t, "fcs")
	m.Scope = "TOP.fcs_top"
	res, err := RunFile(m, vcdPath)
	require.NoError(t, err)
	t.Log(res.Summary())
	return res, string(out)
}

// cleanups run after all tests: they remove the builds cached per test
// binary.
var cleanups []func()

func TestMain(m *testing.M) {
	code := m.Run()
	if verilatorDir != "" {
		os.RemoveAll(verilatorDir)
	}
	for _, f := range cleanups {
		f()
	}
	os.Exit(code)
}

// TestVerilatorFCS runs fcs_top under Verilator on the same vectors as the
// iverilog test and checks the VCD with the same map under Verilator's
// scope: it passes with the same counts and cycles.
func TestVerilatorFCS(t *testing.T) {
	frames := fcsFrames(40)
	res, out := runVerilatorFCS(t, "", frames)
	require.Equal(t, 0, tbErrors(t, out), "%s", out)
	require.True(t, res.Passed(), res.Summary())
	require.EqualValues(t, 40, res.Inputs)
	require.EqualValues(t, 40, res.Matched)
	require.EqualValues(t, 4, res.ResetCycles)
	// The harness stops ten cycles after the last FCS, as tb.v does.
	sched := fcsSchedule(frames)
	require.EqualValues(t, sched[len(sched)-1]+1+10, res.Cycles-1)
}

// TestVerilatorFCSBugTKeep finds BUG_TKEEP under Verilator at the same
// cycle as under iverilog.
func TestVerilatorFCSBugTKeep(t *testing.T) {
	frames := fcsFrames(40)
	res, _ := runVerilatorFCS(t, "BUG_TKEEP", frames)
	require.False(t, res.Passed())
	require.Equal(t, KindMismatch, res.Divergence.Kind)
	require.Equal(t, fcsSchedule(frames)[3]+1, res.Divergence.Cycle)
	require.Equal(t, "TOP.fcs_top.dut.fcs", res.Divergence.Signal)
}

// TestVerilatorLint: every reference block passes Verilator's lint with
// all warnings on (-Wall), as synthesizable RTL should, with and without
// its bug switch.
func TestVerilatorLint(t *testing.T) {
	needTools(t, "verilator")
	blocks := map[string][]string{
		"fcs/fcs_axis.v":          {"", "BUG_TKEEP"},
		"icrc/icrc_axis.v":        {"", "BUG_TTL"},
		"toeplitz/rss_toeplitz.v": {"", "BUG_PORTSWAP"},
		"wred/wred_marker.v":      {"", "BUG_KMAX"},
		"psn/psn_tracker.v":       {"", "BUG_WRAP"},
		"dwrr/dwrr_sched.v":       {"", "BUG_DEFICIT"},
	}
	for _, f := range sortedKeys(blocks) {
		for _, def := range blocks[f] {
			args := []string{"--lint-only", "-Wall", filepath.Join(rtlDir, f)}
			if def != "" {
				args = append(args, "-D"+def)
			}
			out, err := exec.Command("verilator", args...).CombinedOutput()
			require.NoError(t, err, "%s %s: %s", f, def, out)
		}
	}
}
