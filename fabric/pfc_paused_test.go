package fabric

import (
	"strings"
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// The results' PFC pause time is the sum of the devices' pause counters:
// each switch egress (port, class) and each NIC transmitter, none paused
// for longer than the run. A lossless incast pauses NICs and switch ports;
// the lossy run of experiment 3 pauses nothing and registers no counter.
func TestPFCPauseTimeSumsTheDevicesCounters(t *testing.T) {
	for _, c := range []struct {
		file   string
		paused bool
	}{
		{"exp3_lossless_pfc_dcqcn", true},
		{"exp3_lossy_trimming", false},
	} {
		t.Run(c.file, func(t *testing.T) {
			s, err := LoadScenario("../docs/scenarios/" + c.file + ".yaml")
			require.NoError(t, err)
			r, err := NewRun(s)
			require.NoError(t, err)
			require.NoError(t, r.Complete(t.Context(), 10*rtlmodel.Microsecond, 0, nil))
			res := r.Results()
			var sum, longest, nics, ports uint64
			for _, m := range r.Cluster.Engine.Stats().All() {
				ctr, ok := m.(*rtlmodel.Counter)
				name := m.Name()
				if !ok || !(strings.HasSuffix(name, "/tx_paused") || strings.Contains(name, "/pfc_paused/")) {
					continue
				}
				v := ctr.Value()
				require.LessOrEqual(t, v, uint64(r.Cluster.Engine.Now()), "%s is paused for longer than the run", name)
				sum += v
				longest = max(longest, v)
				if v > 0 && strings.HasSuffix(name, "/tx_paused") {
					nics++
				} else if v > 0 {
					ports++
				}
			}
			t.Logf("%s: %d PFC frames, paused %.2f us in all (%d NICs, %d switch port classes), longest %.2f us",
				c.file, res.PFCFrames, res.PFCPausedNS/1e3, nics, ports, res.PFCPausedMaxNS/1e3)
			require.Equal(t, rtlmodel.Time(sum).Nanoseconds(), res.PFCPausedNS)
			require.Equal(t, rtlmodel.Time(longest).Nanoseconds(), res.PFCPausedMaxNS)
			if !c.paused {
				require.Zero(t, res.PFCFrames)
				require.Zero(t, sum)
				require.Zero(t, ports, "no switch port class was paused")
				return
			}
			require.Positive(t, res.PFCFrames)
			require.Positive(t, nics, "the incast's senders are paused")
			require.Positive(t, ports, "so are switch ports")
		})
	}
}
