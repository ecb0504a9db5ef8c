package explore

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// A point that fails when evaluated (the scenario's fabric is too small
// for its incast, which only building the run finds) is reported with
// the sweep file and the line of the value at fault: the entry of the
// swept values list that made the point, a base value of the sweep, or,
// for a key the base scenario file sets, that file and its line.
func TestPointEvaluationErrorsNameTheirLine(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		return p
	}
	scenario := write("incast.yaml", `name: incast
seed: 1
topology: {kind: leafspine, leaves: 2, spines: 2, hosts_per_leaf: 2}
workload:
  kind: incast
  senders: 3
  bytes: 4096
`)
	for _, c := range []struct{ name, sweep, want string }{
		{"swept value", `name: swept
evaluator: scenario
base:
  topology.hosts_per_leaf: 1
  workload.kind: incast
  workload.bytes: 4096
design: {kind: grid}
parameters:
  - name: workload.senders
    values:
      - 3
      - 4
metrics: [jct_us]
`, ":12: point "},
		{"base value", `name: based
evaluator: scenario
base:
  workload.kind: incast
  workload.senders: 5
  workload.bytes: 4096
design: {kind: grid}
parameters:
  - {name: topology.hosts_per_leaf, values: [8, 1]}
metrics: [jct_us]
`, ":5: point "},
		{"scenario file", `name: file
evaluator: scenario
base:
  scenario: incast.yaml
design: {kind: grid}
parameters:
  - {name: topology.leaves, values: [4, 1]}
metrics: [jct_us]
`, ": point "},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := write("sweep.yaml", c.sweep)
			s, err := LoadSweep(p)
			require.NoError(t, err)
			st, err := Run(context.Background(), s, RunOptions{Dir: t.TempDir(), Workers: 1})
			require.Equal(t, 1, st.Failed)
			require.ErrorContains(t, err, p+c.want)
			require.ErrorContains(t, err, "workload: incast of ")
			if c.name == "scenario file" {
				// the point's values are named before it, the file's line of
				// the key at fault (no value of the point set it) in it
				require.ErrorContains(t, err, "(topology.leaves=1): "+scenario+":6: workload: incast of 3 senders")
			}
		})
	}
}
