package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A scenario's notes go to the error output, located, before the table,
// and the run goes on to its results.
func TestRunPrintsTheScenarioNotes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "small.yaml")
	require.NoError(t, os.WriteFile(path, []byte("name: small\ntopology: {kind: leafspine, leaves: 2, spines: 2, hosts_per_leaf: 4}\n"+
		"switch:\n  buffer_bytes: 2000000\nworkload: {kind: incast, senders: 6, bytes: 262144}\n"), 0o644))
	app := newApp()
	var out, errOut bytes.Buffer
	app.Writer, app.ErrWriter = &out, &errOut
	require.NoError(t, app.Run([]string{"fabricmodel", "run", path}))
	require.Contains(t, errOut.String(), "fabricmodel: "+path+":4: note: no data packet will be ECN-marked")
	require.Contains(t, out.String(), "6 of 6")
}

// A run whose flows fail ends with their error and, on a line of its
// own, what the run shows of why, located at the key it points to; the
// results are printed before.
func TestRunSaysWhyFlowsFailed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fail.yaml")
	require.NoError(t, os.WriteFile(path, []byte("name: fail\ntopology: {kind: leafspine, leaves: 2, spines: 1, hosts_per_leaf: 4}\n"+
		"switch:\n  pfc_classes: [0]\nnic:\n  rto_us: 4\n  retry_count: 0\nworkload: {kind: incast, senders: 6, bytes: 1048576}\n"), 0o644))
	out, err := runCLI(t, "run", path)
	require.Error(t, err)
	lines := strings.Split(err.Error(), "\n")
	require.Len(t, lines, 2, err.Error())
	require.Regexp(t, `^\d+ flow\(s\) failed; flow \d+ .*retry count exceeded`, lines[0])
	require.Regexp(t, `^fabricmodel: `+regexp.QuoteMeta(path)+`:6: note: \d+ flow\(s\) ran out of retries, and the egress queue leaf\d/port\d+ held .*; raise nic.rto_us above \d+$`, lines[1])
	require.Contains(t, out, "flows failed")
}

// What the results show goes to the error output after the speed line:
// the default scenario's DCQCN never marks, and the run says so at the
// embedded file's nic.cc line.
func TestRunPrintsTheResultNotes(t *testing.T) {
	app := newApp()
	var out, errOut bytes.Buffer
	app.Writer, app.ErrWriter = &out, &errOut
	require.NoError(t, app.Run([]string{"fabricmodel", "run"}))
	require.Contains(t, out.String(), "speed: ")
	require.Regexp(t, `^fabricmodel: default_scenario.yaml:16: note: DCQCN never cut a rate: .* Set switch.ecn kmin_bytes and kmax_bytes below \d+ for DCQCN to act\n$`, errOut.String())
}
