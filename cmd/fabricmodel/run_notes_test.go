package main

import (
	"bytes"
	"os"
	"path/filepath"
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
