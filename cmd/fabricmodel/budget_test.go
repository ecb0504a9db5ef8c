package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func runCLI(t *testing.T, args ...string) (string, error) {
	app := newApp()
	var out bytes.Buffer
	app.Writer = &out
	err := app.Run(append([]string{"fabricmodel"}, args...))
	return out.String(), err
}

func TestBudgetCommandFormats(t *testing.T) {
	out, err := runCLI(t, "budget", "--format", "json")
	require.NoError(t, err)
	var rep struct {
		Sections []struct {
			Title   string
			TotalNS float64 `json:"total_ns"`
		}
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	require.Greater(t, len(rep.Sections), 8)
	require.Greater(t, rep.Sections[0].TotalNS, 100.0)

	for _, f := range []string{"table", "markdown", "csv"} {
		out, err := runCLI(t, "budget", "--format", f)
		require.NoError(t, err)
		require.Contains(t, out, "End to end")
	}
	_, err = runCLI(t, "budget", "--format", "xml")
	require.ErrorContains(t, err, `want table, markdown, json or csv`)
	out, err = runCLI(t, "budget", "--list")
	require.NoError(t, err)
	require.Contains(t, out, "phy.fec_decode_ps")
}

func TestBudgetConfigFileIsStrict(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.yaml")
	require.NoError(t, os.WriteFile(good, []byte("switch.clock_ps: 1000\nnic.tx_cycles: 150\n"), 0o644))
	out, err := runCLI(t, "budget", "--config", good, "--format", "csv")
	require.NoError(t, err)
	require.True(t, strings.Contains(out, "sw/core,80,80.000"), "the ingress stage now takes 80 cycles of 1 ns")
	bad := filepath.Join(dir, "bad.yaml")
	require.NoError(t, os.WriteFile(bad, []byte("switch.clock_ps: 1000\nswitch.clok_ps: 5\n"), 0o644))
	_, err = runCLI(t, "budget", "--config", bad)
	require.ErrorContains(t, err, "bad.yaml:2:")
	require.ErrorContains(t, err, `unknown budget parameter "switch.clok_ps"`)
	// overrides after a '---' would be dropped without a word
	two := filepath.Join(dir, "two.yaml")
	require.NoError(t, os.WriteFile(two, []byte("switch.clock_ps: 1000\n---\nnic.tx_cycles: 150\n"), 0o644))
	_, err = runCLI(t, "budget", "--config", two)
	require.ErrorContains(t, err, "two.yaml:2: a second YAML document")
	// a syntax error or a byte that is not UTF-8 is at its line, as in a scenario file
	broken := filepath.Join(dir, "broken.yaml")
	require.NoError(t, os.WriteFile(broken, []byte("switch.clock_ps: 1000\n  nic.tx_cycles: 150\n"), 0o644))
	_, err = runCLI(t, "budget", "--config", broken)
	require.ErrorContains(t, err, "broken.yaml:2: mapping values are not allowed in this context")
	latin1 := filepath.Join(dir, "latin1.yaml")
	require.NoError(t, os.WriteFile(latin1, []byte("# caf\xe9\nswitch.clock_ps: 1000\n"), 0o644))
	_, err = runCLI(t, "budget", "--config", latin1)
	require.ErrorContains(t, err, "latin1.yaml:1: byte 0xe9, character 6 of the line, is not UTF-8: a budget file is UTF-8 text")
	// only comments: nothing to override, the defaults' budget
	empty := filepath.Join(dir, "empty.yaml")
	require.NoError(t, os.WriteFile(empty, []byte("# no overrides yet\n"), 0o644))
	_, err = runCLI(t, "budget", "--config", empty)
	require.NoError(t, err)
}

// Values out of range name the file and line of a --config key, or the
// --set flag, in the parameter's terms; no Go parse error, no panic.
func TestBudgetErrorsNameWhereTheValueWasGiven(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		return p
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--config", write("mtu.yaml", "switch.clock_ps: 800\nnic.mtu: -5\n")}, "mtu.yaml:2: nic.mtu -5: payload bytes per packet, 256 to 4096 B"},
		{[]string{"--config", write("abc.yaml", "nic.mtu: abc\n")}, `abc.yaml:1: nic.mtu "abc": not a whole number`},
		{[]string{"--config", write("pipes.yaml", "switch.pipes: 3\n")}, "pipes.yaml:1: switch.pipes 3: packet-processing pipes, 1, 2, 4, 8, 16, 32 or 64"},
		{[]string{"--config", write("ep.yaml", "scale.endpoints: 0\n")}, "ep.yaml:1: scale.endpoints 0: forwarding table endpoints, 1 to 4294967296"},
		{[]string{"--config", write("gen.yaml", "\npcie.gen: 9\n")}, "gen.yaml:2: pcie.gen 9: PCIe generation, 1 to 6"},
		{[]string{"--config", write("dup.yaml", "nic.mtu: 1024\nscale.rails: 4\nnic.mtu: 2048\n")}, "dup.yaml:3: nic.mtu: set twice (first at line 1)"},
		{[]string{"--set", "nic.mtu=abc"}, "--set nic.mtu=abc: not a whole number"},
		{[]string{"--set", "nic.clock_ps=0"}, "--set nic.clock_ps=0: NIC core clock period, 1 to 1000000 ps"},
		{[]string{"--set", "scale.rails=0"}, "--set scale.rails=0: planes of a rail-optimized fabric, 1 to 64"},
		{[]string{"--set", "nic.mtu=1024", "--set", "nic.mtu=2048"}, "--set nic.mtu=2048: nic.mtu set twice (first --set nic.mtu=1024)"},
		{[]string{"--set", "nic.bogus=1"}, `--set nic.bogus=1: unknown budget parameter "nic.bogus"`},
		// a conflict is located where the parameter at fault was given, or
		// where the one it conflicts with was when only that one was
		{[]string{"--config", write("mtu256.yaml", "nic.mtu: 256\n"), "--set", "latency.payload=1000"},
			"--set latency.payload=1000: at most nic.mtu, 256 B: the latency budgets follow one packet"},
		{[]string{"--config", write("pay.yaml", "nic.mtu: 256\nlatency.payload: 1000\n")},
			"pay.yaml:2: latency.payload 1000: at most nic.mtu, 256 B"},
		{[]string{"--config", write("cyc.yaml", "switch.egress_cycles: 0\n"), "--set", "switch.mmu_cycles=0"},
			"--set switch.mmu_cycles=0: the traffic manager and the egress pipeline need at least one cycle between them"},
		{[]string{"extra", "arg"}, `budget takes no arguments (got ["extra" "arg"])`},
	} {
		_, err := runCLI(t, append([]string{"budget"}, tc.args...)...)
		require.Error(t, err, "%v", tc.args)
		got := strings.TrimPrefix(err.Error(), dir+string(filepath.Separator))
		require.True(t, strings.HasPrefix(got, tc.want), "%v:\n got %q\nwant %q", tc.args, got, tc.want)
	}
	// a --set after --config may change what the file set
	out, err := runCLI(t, "budget", "--config", write("ok.yaml", "switch.pipes: 4\n"), "--set", "switch.pipes=2", "--format", "csv")
	require.NoError(t, err)
	require.Contains(t, out, "2 x 4 @ 1.250 GHz")
}
