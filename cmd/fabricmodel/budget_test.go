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
	// only comments: nothing to override, the defaults' budget
	empty := filepath.Join(dir, "empty.yaml")
	require.NoError(t, os.WriteFile(empty, []byte("# no overrides yet\n"), 0o644))
	_, err = runCLI(t, "budget", "--config", empty)
	require.NoError(t, err)
}
