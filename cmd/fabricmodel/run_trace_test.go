package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// --trace-flows takes IDs up to the largest an int holds, and ranges up
// to it, and refuses those beyond the run's flows by the first one it
// lacks, without listing the range: no count wraps, no list grows past
// the run's flows.
func TestTraceFlowsUpToTheLargestID(t *testing.T) {
	for _, c := range []struct{ ids, want string }{
		{"9223372036854775807", "no flow 9223372036854775807 (the run has flows 0 to 31)"},
		{"9223372036854775806-9223372036854775807", "no flow 9223372036854775806 (the run has flows 0 to 31)"},
		{"1,0-9223372036854775807", "no flow 32 (the run has flows 0 to 31)"},
	} {
		spans, err := parseFlowIDs(c.ids)
		require.NoError(t, err, c.ids)
		_, err = flowIDs(spans, 32)
		require.EqualError(t, err, c.want, c.ids)
	}
	spans, err := parseFlowIDs("5,0-9223372036854775807")
	require.NoError(t, err)
	_, err = flowIDs(spans, 0)
	require.EqualError(t, err, "the run has no flows to trace")
	_, err = parseFlowIDs("9223372036854775808")
	require.ErrorContains(t, err, `"9223372036854775808" is not a flow ID`)

	path := filepath.Join(t.TempDir(), "t.jsonl")
	_, err = runCLI(t, "run", "--trace", path, "--trace-flows", "9223372036854775806-9223372036854775807")
	require.EqualError(t, err, "--trace-flows 9223372036854775806-9223372036854775807: no flow 9223372036854775806 (the run has flows 0 to 31)")
}

// A run with no flows (a trace of a header only) has none to trace:
// --trace says so, naming --trace-flows only when it was given.
func TestTraceOfARunWithoutFlows(t *testing.T) {
	dir := t.TempDir()
	sc := filepath.Join(dir, "s.yaml")
	require.NoError(t, os.WriteFile(sc, []byte("name: header_only\nseed: 1\ntopology:\n  kind: leafspine\n  leaves: 2\n  spines: 2\n  hosts_per_leaf: 2\n"+
		"workload:\n  kind: csv\n  file: flows.csv\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "flows.csv"), []byte("src,dst,bytes,start_ns\n"), 0o644))
	trace := filepath.Join(dir, "t.jsonl")
	_, err := runCLI(t, "run", "--trace", trace, sc)
	require.EqualError(t, err, "--trace "+trace+": the run has no flows to trace")
	_, err = runCLI(t, "run", "--trace", trace, "--trace-flows", "0", sc)
	require.EqualError(t, err, "--trace-flows 0: the run has no flows to trace")
	_, err = os.Stat(trace)
	require.ErrorIs(t, err, os.ErrNotExist)
}
