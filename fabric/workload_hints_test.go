package fabric

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Two workload errors say what would run: the largest power of two of
// ranks for a halving-doubling all-reduce on a fabric of another size,
// and the form of the size CDF a background mix needs.
func TestWorkloadErrorsSayWhatWouldRun(t *testing.T) {
	for _, c := range []struct{ workload, want string }{
		{"{kind: hd_allreduce, bytes: 1048576}", "got 12 (workload.ranks 8 runs it on the first 8 endpoints)"},
		{"{kind: background, load: 0.3, duration_us: 10}", "workload.size_cdf, points {bytes, p} rising to p 1"},
	} {
		s, err := ParseScenario("w.yaml", []byte("name: w\ntopology: {kind: leafspine, leaves: 3, spines: 2, hosts_per_leaf: 4}\nworkload: "+c.workload+"\n"))
		if err == nil {
			_, err = NewRun(s)
		}
		require.ErrorContains(t, err, c.want)
		require.ErrorContains(t, err, "w.yaml:3:")
	}
}
