package fabric

import (
	"context"
	"runtime"
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// The two 1024-endpoint fabrics of the speed goal (README, "Speed at
// scale") run their 2 MB permutation to completion: every flow completes,
// every one of the 524,288 data packets is delivered, the job completion
// time is the one the README reports, and the process never took 4 GiB
// from the operating system (runtime.MemStats.Sys only grows, so it bounds
// the peak). Their results are pinned like the experiments'
// (TestExperimentResultsArePinned): these runs, with thousands of flows,
// PFC pauses and ECN marks, are where a change to the evaluation order
// shows first. About 10 and 16 s on one core.
func TestThousandEndpointFabricsCompleteUnder4GiB(t *testing.T) {
	cases := []struct {
		file   string
		jctNS  float64
		digest string
	}{
		{"../docs/scenarios/speed_1024_leafspine.yaml", 326_728, "dc1e7b4a6fa859f789b6584d21927f9b2e7d4fbfa5b8355d2bac273b81567556"},
		{"../docs/scenarios/speed_1024_fattree.yaml", 813_900, "575569f60d3ecc80ebfe2bb278c579f788dd7d18b9cb4ba78a5cafbe7f03db54"},
	}
	for _, c := range cases {
		s, err := LoadScenario(c.file)
		require.NoError(t, err)
		r, err := NewRun(s)
		require.NoError(t, err)
		require.NoError(t, r.Complete(context.Background(), 10*rtlmodel.Microsecond, 5*rtlmodel.Millisecond, nil))
		res := r.Results()
		require.Equal(t, 1024, res.Endpoints, c.file)
		require.Equal(t, res.Flows, res.Completed, c.file)
		require.Equal(t, uint64(524_288), res.DataPackets, c.file)
		require.Len(t, res.JobTimesNS, 1, c.file)
		require.InDelta(t, c.jctNS, res.JobTimesNS[0], 5, "%s: job completion time (ns) no longer the README's", c.file)
		require.Equal(t, c.digest, resultsDigest(t, res), "%s: the results changed", c.file)
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		require.Less(t, ms.Sys, uint64(4<<30), "%s: memory taken from the OS", c.file)
		t.Logf("%s: JCT %.2f us, %d packets, %.0f MiB taken from the OS so far", c.file,
			res.JobTimesNS[0]/1e3, res.DataPackets, float64(ms.Sys)/(1<<20))
	}
}
