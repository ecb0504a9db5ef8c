package fabric

import (
	"context"
	"testing"

	"github.com/fabricmodel/fabricmodel/nic400g"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/serdes"
	"github.com/stretchr/testify/require"
)

// A flow whose frames can never arrive fails instead of resending
// forever: with the cable from a leaf to host 1 cut (every codeword on it
// lost), the flows to host 1 and from it (whose ACKs cross that cable)
// fail once their NICs have timed out RetryCount + 1 times in a row, the
// others complete, and the run ends with a *FlowsFailedError naming them,
// its results counting the completed flows and listing the failed ones;
// with the defaults, and with the scenario's nic.rto_us and
// nic.retry_count. The run's failure note counts the corrupted frames.
func TestFlowsOverACutCableFail(t *testing.T) {
	for _, c := range []struct {
		nic     string // the scenario's nic section
		rto     rtlmodel.Time
		retries int
	}{
		{"", nic400g.DefaultConfig(0).RTO, nic400g.MaxRetryCount},
		{"nic:\n  rto_us: 10\n  retry_count: 1\n", 10 * rtlmodel.Microsecond, 1},
	} {
		s, err := ParseScenario("cut.yaml", []byte(`name: cut
seed: 3
topology:
  kind: leafspine
  leaves: 2
  spines: 2
  hosts_per_leaf: 2
workload:
  kind: permutation
  bytes: 65536
`+c.nic))
		require.NoError(t, err)
		r, err := NewRun(s)
		require.NoError(t, err)
		dead, err := serdes.NewFailureSampler(1, 1)
		require.NoError(t, err)
		*r.Cluster.Leaves[0].TxPhy(1).Wire().Sampler() = *dead
		err = r.Complete(context.Background(), 10*rtlmodel.Microsecond, 20*rtlmodel.Millisecond, nil)
		t.Log(err)
		var fe *FlowsFailedError
		require.ErrorAs(t, err, &fe)
		require.NotEmpty(t, fe.Failed)
		// the last timeout comes (retries + 1) RTOs after the first send,
		// a few microseconds after the post
		last := float64(c.retries+1) * c.rto.Nanoseconds()
		for _, f := range fe.Failed {
			require.True(t, f.Src == 1 || f.Dst == 1, "flow %d (%d to %d) does not touch host 1", f.ID, f.Src, f.Dst)
			require.Equal(t, nic400g.StatusRetryExceeded.String(), f.Status)
			require.Greater(t, f.FailedNS-f.StartNS, last, "flow %d failed before its last timeout", f.ID)
			require.Less(t, f.FailedNS-f.StartNS, last+10e3, "flow %d failed long after its last timeout", f.ID)
		}
		touching := 0
		for _, f := range r.Flows {
			if f.Src == 1 || f.Dst == 1 {
				touching++
			}
		}
		require.Len(t, fe.Failed, touching)
		res := r.Results()
		require.Equal(t, len(r.Flows)-touching, res.Completed)
		require.Equal(t, fe.Failed, res.Failed)
		require.Contains(t, err.Error(), "retry count exceeded")
		// the run's note says the frames were lost on the wire, not queued
		notes := r.FailureNotes(res)
		require.Len(t, notes, 1)
		require.Regexp(t, `^cut\.yaml: note: \d+ flow\(s\) ran out of retries, and no queue held packets as long as the \d+ us retransmission timeout \(.*\): what the timeouts waited for was lost or not sent \(0 packets the switches dropped for want of buffer, [1-9]\d* frames corrupted on the wire\)$`, notes[0])
	}
}
