package verify

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

var cliBuild struct {
	once sync.Once
	bin  string
	out  []byte
	err  error
}

// fabricmodelCLI builds the fabricmodel command once per test binary.
func fabricmodelCLI(t *testing.T) string {
	t.Helper()
	b := &cliBuild
	b.once.Do(func() {
		dir, err := os.MkdirTemp("", "verify-cli-")
		if err != nil {
			b.err = err
			return
		}
		cleanups = append(cleanups, func() { os.RemoveAll(dir) })
		b.bin = filepath.Join(dir, "fabricmodel")
		goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
		b.out, b.err = exec.Command(goTool, "build", "-o", b.bin, "github.com/fabricmodel/fabricmodel/cmd/fabricmodel").CombinedOutput()
	})
	require.NoError(t, b.err, "go build: %s", b.out)
	return b.bin
}

// cli runs the command and returns its stdout, stderr and exit status.
func cli(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(fabricmodelCLI(t), args...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return o.String(), e.String(), ee.ExitCode()
	}
	require.NoError(t, err)
	return o.String(), e.String(), 0
}

// TestCLIVectorsTestbench: `fabricmodel vectors` writes the vectors, the
// wred testbench replays them under iverilog and checks the RTL against
// expected.hex itself, and `fabricmodel verify` agrees on the VCD.
func TestCLIVectorsTestbench(t *testing.T) {
	needTools(t, "iverilog", "vvp")
	dir := t.TempDir()
	out, errOut, code := cli(t, "vectors", "--block", "wred", "--count", "500", "--seed", "42", "--out", dir)
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "vectors: wred: 500 inputs, 500 expected outputs")
	vcdPath, simOut := runIverilog(t, "wred", "wred_top", nil, dir)
	require.Contains(t, simOut, "VECTORS: 500 outputs, 0 errors")
	junit := filepath.Join(t.TempDir(), "out.xml")
	out, errOut, code = cli(t, "verify", "--map", filepath.Join(rtlDir, "wred", "map.yaml"), "--vcd", vcdPath, "--junit", junit)
	require.Equal(t, 0, code, out+errOut)
	require.Contains(t, out, "PASS wred: 500 input and 500 output transactions")
	x, err := os.ReadFile(junit)
	require.NoError(t, err)
	require.Contains(t, string(x), `failures="0"`)
	// --scope replaces the map's scope.
	_, errOut, code = cli(t, "verify", "--map", filepath.Join(rtlDir, "wred", "map.yaml"), "--vcd", vcdPath, "--scope", "tb.dut")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "map.yaml:5: clock: signal tb.dut.clk is not in the VCD")
}

// TestCLIVerifyFindsBug: the fcs testbench with BUG_TKEEP on CLI vectors;
// verify exits 1 and names the cycle of the first frame whose length is not
// a multiple of 8, computed here from stimulus.jsonl.
func TestCLIVerifyFindsBug(t *testing.T) {
	needTools(t, "iverilog", "vvp")
	dir := t.TempDir()
	_, errOut, code := cli(t, "vectors", "--block", "fcs", "--count", "30", "--seed", "3", "--out", dir)
	require.Equal(t, 0, code, errOut)
	var frames []Txn
	for _, l := range readLines(t, filepath.Join(dir, "stimulus.jsonl")) {
		var j struct{ Data string }
		require.NoError(t, json.Unmarshal([]byte(l), &j))
		b, err := hex.DecodeString(j.Data)
		require.NoError(t, err)
		frames = append(frames, Txn{Data: b})
	}
	first := -1
	for i, f := range frames {
		if len(f.Data)%8 != 0 {
			first = i
			break
		}
	}
	require.GreaterOrEqual(t, first, 0)
	want := fcsSchedule(frames)[first] + 1
	vcdPath, _ := runIverilog(t, "fcs", "fcs_top", []string{"BUG_TKEEP"}, dir)
	junit := filepath.Join(t.TempDir(), "out.xml")
	out, errOut, code := cli(t, "verify", "--map", filepath.Join(rtlDir, "fcs", "map.yaml"), "--vcd", vcdPath, "--junit", junit)
	require.Equal(t, 1, code, out+errOut)
	require.Contains(t, out, "FAIL fcs: mismatch at cycle "+itoa(want)+" (time "+itoa(want*10+5)+"ns): signal tb.top.dut.fcs (field fcs)")
	require.Contains(t, errOut, "diverges from the fcs golden model")
	x, err := os.ReadFile(junit)
	require.NoError(t, err)
	require.Contains(t, string(x), `failures="1"`)
}

func itoa(v uint64) string { return strconv.FormatUint(v, 10) }

func TestCLIErrors(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "map.yaml")
	require.NoError(t, os.WriteFile(bad, []byte("block: fcs\nclock: {signal: clk}\ninput: {valid: v, tdata: d, tlast: l}\noutput: {valid: o, fields: {fcs: f}, extra: 1}\n"), 0o644))
	_, errOut, code := cli(t, "verify", "--map", bad, "--vcd", "nothing.vcd")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, bad+":4: output.extra: unknown key; output takes valid, ready, fields, mask, tdata, tkeep, tlast, tuser")
	_, errOut, code = cli(t, "vectors", "--count", "3")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "--block and --out are required")
	_, errOut, code = cli(t, "vectors", "--block", "wred", "--param", "kmax", "--out", t.TempDir())
	require.Equal(t, 1, code)
	require.Contains(t, errOut, `parameter "kmax": write name=value`)
	out, _, code := cli(t, "vectors", "--list")
	require.Equal(t, 0, code)
	require.Contains(t, out, "rs544\n")
}
