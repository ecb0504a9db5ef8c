package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// A plot --plots has no data for is left out with a word on the error
// writer naming it and why, rather than silently: a run that ends before
// any flow completes draws none of the three, and a single flow that
// never queues draws no queue plot.
func TestRunSaysWhichPlotsItLeftOut(t *testing.T) {
	dir := t.TempDir()
	const topology = "topology: {kind: leafspine, leaves: 2, spines: 2, hosts_per_leaf: 2}\n"
	zero := filepath.Join(dir, "zero.yaml")
	require.NoError(t, os.WriteFile(zero, []byte("name: zero\nmax_time_us: 1\n"+topology+"workload: {kind: permutation, bytes: 100000}\n"), 0o644))
	one := filepath.Join(dir, "one.yaml")
	require.NoError(t, os.WriteFile(one, []byte("name: one\n"+topology+"workload: {kind: incast, bytes: 1, senders: 1, receiver: 0}\n"), 0o644))

	run := func(plots, scenario string) string {
		app := newApp()
		var stdout, stderr bytes.Buffer
		app.Writer, app.ErrWriter = &stdout, &stderr
		_ = app.Run([]string{"fabricmodel", "run", "--plots", plots, scenario})
		return stderr.String()
	}
	plots := filepath.Join(dir, "zero")
	said := run(plots, zero)
	require.Contains(t, said, "--plots "+plots+": "+fctPlotFile+" not drawn: no flow completed\n")
	require.Contains(t, said, "--plots "+plots+": "+linkUtilPlotFile+" not drawn: no switch port sent a frame\n")
	require.Contains(t, said, "--plots "+plots+": "+queuesPlotFile+" not drawn: no switch egress queue held a byte")
	entries, err := os.ReadDir(plots)
	require.NoError(t, err)
	require.Empty(t, entries)

	plots = filepath.Join(dir, "one")
	said = run(plots, one)
	require.Equal(t, "fabricmodel: --plots "+plots+": "+queuesPlotFile+" not drawn: no switch egress queue held a byte at any sample (taken every --step-us)\n", said)
	require.FileExists(t, filepath.Join(plots, fctPlotFile))
	require.FileExists(t, filepath.Join(plots, linkUtilPlotFile))
}
