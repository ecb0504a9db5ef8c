package nic400g

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A NIC takes only the frames sent to its MAC: frames to another
// address are dropped and counted (rx_not_mine), so a message sent to a
// gateway that is not there never lands and its QP gives up at its
// timeout, where one sent to the NIC's own MAC completes.
func TestNICDropsFramesForAnotherMAC(t *testing.T) {
	for _, gateway := range [][6]byte{{}, {0x02, 0x09, 0x09, 0x09, 0x09, 0x09}} {
		ca, cb := DefaultConfig(1), DefaultConfig(2)
		ca.GatewayMAC = gateway
		ca.RetryCount = 0
		e, a, b := backToBack(t, ca, cb)
		done := sendOneMessage(t, e, a, 3*4096)
		notMine := counter(t, e, "nicB/rx_not_mine")
		if gateway == ([6]byte{}) {
			require.Len(t, done, 1, "to nicB's own MAC")
			require.Equal(t, StatusOK, done[0].Status)
			require.Zero(t, notMine)
			require.Equal(t, b.MAC(), [6]byte{0x02, 0, 0, 0, 0, 2})
			continue
		}
		require.Equal(t, uint64(3), notMine, "the three packets, dropped")
		require.Zero(t, counter(t, e, "nicB/rx_data"))
		require.Len(t, done, 1)
		require.Equal(t, StatusRetryExceeded, done[0].Status, "the sender gave up at its timeout (RetryCount 0)")
	}
}
