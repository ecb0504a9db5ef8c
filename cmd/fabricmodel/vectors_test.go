package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestVectorsRejectsBadParameters(t *testing.T) {
	out := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--block", "dwrr", "--param", "queues=0"}, "vectors: dwrr: queues 0; use 1 to 8"},
		{[]string{"--block", "fcs", "--param", "min_len=300", "--param", "max_len=10"}, "vectors: fcs: min_len 300 above max_len 10"},
		{[]string{"--block", "icrc", "--param", "min_len=10"}, "vectors: icrc: min_len 10; use 40 to 9600"},
		{[]string{"--block", "dcqcn", "--param", "paper=7"}, "vectors: dcqcn: paper 7; use 0 or 1"},
		{[]string{"--block", "dwrr", "--param", "queues=2", "--param", "queues=3"}, `vectors: parameter "queues=3": queues given twice (first "queues=2")`},
		{[]string{"--block", "fcs", "extra"}, `vectors takes no arguments (got ["extra"])`},
	} {
		_, err := runCLI(t, append([]string{"vectors", "--count", "5", "--out", out}, tc.args...)...)
		require.ErrorContains(t, err, tc.want, "%v", tc.args)
	}
	_, err := runCLI(t, "vectors", "--count", "5", "--out", out, "--block", "dwrr", "--param", "queues=8")
	require.NoError(t, err)
}
