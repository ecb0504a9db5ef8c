package vcd

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const ivTestbench = `module tb;
  reg clk = 0;
  reg [7:0] data = 8'h00;
  wire [3:0] nib;
  real level = 0.0;
  integer count = 0;
  reg [3:0] xz = 4'bxz10;
  assign nib = data[3:0];
  genvar i;
  generate for (i = 0; i < 2; i = i + 1) begin : crc
    reg [1:0] st = 2'b00;
    always @(posedge clk) st <= data[i*2 +: 2];
  end endgenerate
  function [7:0] inc;
    input [7:0] v;
    reg [7:0] tmp;
    begin tmp = v + 1; inc = tmp; end
  endfunction
  task bump;
    input [7:0] by;
    reg [7:0] acc;
    begin acc = data + by; data = acc; end
  endtask
  always #5 clk = ~clk;
  initial begin : main
    reg [7:0] scratch;
    $dumpfile("tb.vcd");
    $dumpvars(0, tb);
    #10 data = inc(data);
    bump(8'd3);
    level = 2.5;
    #10 $dumpoff;
    #10 $dumpon;
    data = 8'hzz;
    #10 $dumpall;
    count = 7;
    #10 $finish;
  end
endmodule
`

// TestIcarusVerilogDump compiles a small module with a generate block, a
// task, a function and a named begin block, runs it with vvp and reads the
// VCD it dumps.
func TestIcarusVerilogDump(t *testing.T) {
	iverilog, err := exec.LookPath("iverilog")
	ciRequires(t, err, "iverilog", "iverilog")
	vvp, err := exec.LookPath("vvp")
	ciRequires(t, err, "vvp", "iverilog")

	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "tb.v"), []byte(ivTestbench), 0o644))
	run := func(name string, args ...string) {
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s: %s", name, out)
	}
	run(iverilog, "-o", "tb.vvp", "tb.v")
	run(vvp, "-n", "tb.vvp")

	h, tr := traceFile(t, filepath.Join(dir, "tb.vcd"))
	assert.Contains(t, h.Version, "Icarus Verilog")
	types := map[string]ScopeType{}
	var walk func([]*Scope)
	walk = func(ss []*Scope) {
		for _, s := range ss {
			types[s.FullName()] = s.Type
			walk(s.Scopes)
		}
	}
	walk(h.Scopes)
	assert.Equal(t, ScopeModule, types["tb"])
	assert.Equal(t, ScopeFunction, types["tb.inc"])
	assert.Equal(t, ScopeTask, types["tb.bump"])
	assert.Equal(t, ScopeBegin, types["tb.main"])
	require.Contains(t, types, "tb.crc[0]", "generate scope, scopes: %v", types)
	require.Contains(t, types, "tb.crc[1]")

	st := h.Var("tb.crc[1].st")
	require.NotNil(t, st)
	assert.Equal(t, 2, st.Width)
	assert.Equal(t, 8, h.Var("tb.data").Width)
	assert.True(t, h.Var("tb.level").Signal.Real)

	joined := strings.Join(tr, "\n")
	assert.Contains(t, joined, "$dumpvars")
	assert.Contains(t, joined, "$dumpoff")
	assert.Contains(t, joined, "$dumpon")
	assert.Contains(t, joined, "$dumpall")
	assert.Contains(t, joined, "@0 tb.xz=xz10")
	assert.Contains(t, joined, "@10 tb.level=2.5")
	assert.Contains(t, joined, "@10 tb.data=00000100", "inc then bump by 3")
	assert.Contains(t, joined, "@30 tb.data=zzzzzzzz")
	assert.Contains(t, joined, "@40 tb.count=00000000000000000000000000000111")
	assert.Equal(t, "@50 tb.clk=0", tr[len(tr)-1])
}

// TestWriterOutputConvertsWithVcd2fst writes a small VCD and converts it with
// GTKWave's vcd2fst, which rejects files it cannot parse.
func TestWriterOutputConvertsWithVcd2fst(t *testing.T) {
	vcd2fst, err := exec.LookPath("vcd2fst")
	ciRequires(t, err, "vcd2fst", "gtkwave")

	var buf bytes.Buffer
	w, err := NewWriter(&buf, WriterOptions{Timescale: Timescale{1, Picosecond}, Date: "Sun Nov 29 00:00:00 2026"})
	require.NoError(t, err)
	require.NoError(t, w.PushScope(ScopeModule, "top"))
	clk, _ := w.Declare(VarWire, 1, "clk")
	cnt, _ := w.Declare(VarReg, 16, "count")
	wide, _ := w.Declare(VarReg, 100, "wide")
	lvl, _ := w.Declare(VarReal, 64, "level")
	require.NoError(t, w.PushScope(ScopeBegin, "lane[0]"))
	require.NoError(t, w.Alias(cnt, VarWire, "count_q"))
	ev, _ := w.Declare(VarEvent, 1, "done")
	require.NoError(t, w.PopScope())
	require.NoError(t, w.PopScope())
	for i := uint64(0); i < 64; i++ {
		require.NoError(t, w.Time(i*400))
		require.NoError(t, w.SetUint64(clk, i&1))
		if i&1 == 1 {
			require.NoError(t, w.SetUint64(cnt, i/2))
			require.NoError(t, w.SetReal(lvl, float64(i)/8))
		}
		if i%8 == 0 {
			require.NoError(t, w.SetBits(wide, "z1x0"+strings.Repeat("01", int(i%40))))
			require.NoError(t, w.Trigger(ev))
		}
	}
	require.NoError(t, w.Time(64*400))
	require.NoError(t, w.Close())

	// The same bytes read back with this package.
	_, tr := trace(t, bytes.NewReader(buf.Bytes()))
	assert.Contains(t, strings.Join(tr, "\n"), "@12400 top.count=0000000000001111")

	dir := t.TempDir()
	in, out := filepath.Join(dir, "small.vcd"), filepath.Join(dir, "small.fst")
	require.NoError(t, os.WriteFile(in, buf.Bytes(), 0o644))
	cmd := exec.Command(vcd2fst, in, out)
	msg, err := cmd.CombinedOutput()
	require.NoError(t, err, "vcd2fst: %s", msg)
	assert.NotContains(t, strings.ToLower(string(msg)), "error", string(msg))
	fi, err := os.Stat(out)
	require.NoError(t, err)
	assert.Greater(t, fi.Size(), int64(0))

	// And back to VCD with fst2vcd when it is there: the signals survive.
	if fst2vcd, err := exec.LookPath("fst2vcd"); err == nil {
		back, err := exec.Command(fst2vcd, out).Output()
		require.NoError(t, err)
		h, err := ReadHeader(bytes.NewReader(back))
		require.NoError(t, err)
		assert.NotNil(t, h.Var("top.count"))
		assert.NotNil(t, h.Var("top.lane[0].count_q"))
		for _, name := range []string{"top.count", "top.wide", "top.level", "top.clk"} {
			want := history(t, buf.Bytes(), name)
			require.Greater(t, len(want), 1, name)
			assert.Equal(t, want, history(t, back, name), name)
		}
	}
}

// history lists the distinct values one signal takes, with their times.
func history(t *testing.T, file []byte, name string) []string {
	t.Helper()
	rd, err := NewReader(bytes.NewReader(file))
	require.NoError(t, err)
	v := rd.Header().Var(name)
	require.NotNil(t, v, name)
	var out []string
	last := ""
	for ev, err := range rd.All() {
		require.NoError(t, err)
		if ev.Kind == EventChange && ev.Signal == v.Signal && ev.Value.String() != last {
			last = ev.Value.String()
			out = append(out, fmt.Sprintf("%d:%s", ev.Time, last))
		}
	}
	return out
}
