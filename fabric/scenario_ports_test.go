package fabric

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The PFC headroom a scenario's buffer must hold is that of its switches'
// cabled ports, not of the chip's 128: a leaf of 4 hosts and 2 uplinks
// reserves for 6, so 4 MB is enough for one lossless class (it was
// refused as needing 28 MB), 1 MB is not, and the error counts 6 ports.
func TestPFCHeadroomIsCheckedForTheFabricsPorts(t *testing.T) {
	const head = "name: h\ntopology: {kind: leafspine, leaves: 2, spines: 2, hosts_per_leaf: 4}\nworkload: {kind: incast, senders: 4, bytes: 100000}\n"
	require.Equal(t, []int{2, 6}, func() []int {
		s, err := ParseScenario("h.yaml", []byte(head))
		require.NoError(t, err)
		return s.switchPortCounts()
	}())
	r := completeScenario(t, "h.yaml", head+"switch: {buffer_bytes: 4000000, pfc_classes: [0]}\n")
	res := r.Results()
	require.Equal(t, res.Flows, res.Completed)
	require.Zero(t, res.Drops)
	_, err := ParseScenario("h.yaml", []byte(head+"switch: {buffer_bytes: 1000000, pfc_classes: [0]}\n"))
	require.ErrorContains(t, err, "h.yaml:4: switch: TMConfig.PFC.HeadroomBytes")
	require.ErrorContains(t, err, "each of 6 ports")
}
