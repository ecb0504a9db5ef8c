package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// Mistakes in the run's flags are found before the fabric is built, so a
// long run never ends in an output it cannot write; an existing result
// file is left alone when the run does not start.
func TestRunRejectsBadFlagsBeforeRunning(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "old.json")
	require.NoError(t, os.WriteFile(old, []byte("kept"), 0o644))
	bad := filepath.Join(dir, "bad.yaml")
	require.NoError(t, os.WriteFile(bad, []byte("name: x\ntopology:\n  kind: leafspine\n  leaves: 2\n  spines: 2\n  hosts_per_leaf: 2\n"+
		"workload:\n  kind: permutation\n  bytes: 1000\nnic:\n  mtu: 9000\n"), 0o644))
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--step-us", "-1"}, "--step-us -1: a positive number"},
		{[]string{"run", "--step-us", "0"}, "--step-us 0: a positive number"},
		{[]string{"run", "--json", filepath.Join(dir, "absent", "r.json")}, "no directory " + filepath.Join(dir, "absent")},
		{[]string{"run", "--csv", dir}, "a directory, not a file"},
		{[]string{"run", "a.yaml", "b.yaml"}, "one scenario file at a time"},
		{[]string{"run", "--json", old, bad}, bad + ":11: nic.mtu 9000"},
	} {
		_, err := runCLI(t, c.args...)
		require.ErrorContains(t, err, c.want, "%v", c.args)
	}
	b, err := os.ReadFile(old)
	require.NoError(t, err)
	require.Equal(t, "kept", string(b))
}
