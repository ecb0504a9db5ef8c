package nic400g

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Data packets collect in-band telemetry exactly when the congestion
// control reads it: HPCC's, no other.
func TestCollectsINTFollowsTheCongestionControl(t *testing.T) {
	for _, cc := range []string{"none", "dcqcn", "dcqcn-fw", "hpcc", "timely", "swift", "eqds", "nscc"} {
		c := DefaultConfig(0)
		c.CC = cc
		got, err := CollectsINT(c)
		require.NoError(t, err, cc)
		require.Equal(t, cc == "hpcc", got, cc)
	}
	c := DefaultConfig(0)
	c.CC = "bogus"
	_, err := CollectsINT(c)
	require.Error(t, err)
}
