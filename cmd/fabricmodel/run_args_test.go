package main

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// Flags end at the first argument: flags after run's scenario file are
// told to go before it, and arguments to the commands that take flags
// only are refused, before anything is read or run.
func TestCommandsRefuseArgumentsTheyDoNotRead(t *testing.T) {
	noRuns(t)
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "in/small.yaml", "--json", "out/x.json"},
			"--json out/x.json after the scenario file in/small.yaml: flags go before it, as in fabricmodel run [flags] scenario.yaml"},
		{[]string{"run", "a.yaml", "b.yaml"}, "one scenario file at a time; got 2: [a.yaml b.yaml]"},
		{[]string{"run", "a.yaml", "-"}, "one scenario file at a time; got 2: [a.yaml -]"},
		{[]string{"verify", "--map", "m.yaml", "--vcd", "v.vcd", "extra"}, `verify takes flags only, no arguments: got ["extra"]`},
		{[]string{"verify", "--map", "m.yaml", "--vcd", "v.vcd", "extra", "--junit", filepath.Join(dir, "j.xml")},
			`verify takes flags only: "extra" is not one, and the flags after it (--junit ` + filepath.Join(dir, "j.xml") + `) were not read`},
		{[]string{"mesh", "8"}, `mesh takes flags only, no arguments: got ["8"]`},
	} {
		_, err := runCLI(t, c.args...)
		require.EqualError(t, err, c.want, "%v", c.args)
	}
}
