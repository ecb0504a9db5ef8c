package nic400g

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// A timeout under selective repeat takes every packet sent before it and
// not acknowledged as lost: the oldest ReorderTolerance go at once and
// each ACK they bring back releases two more per packet it acknowledges,
// so a message whose 64 packets were all lost (a peer that drops what it
// is sent before the first timeout, then takes it) completes within 5 us
// of that one timeout, every packet resent once. Resending one batch per
// timeout would take 64 / ReorderTolerance timeouts; one resend per
// packet acknowledged, behind the receiver's ACK coalescing, some 60 us.
func TestOneTimeoutResendsEveryLostPacket(t *testing.T) {
	const rto = 10 * rtlmodel.Microsecond
	ca, cb := DefaultConfig(1), DefaultConfig(2)
	ca.NoICRC, ca.RTO = true, rto
	require.Equal(t, SelectiveRepeat, ca.Recovery)
	require.Less(t, ca.ReorderTolerance, 64)
	e, a, b := backToBack(t, ca, cb)
	var done []Completion
	a.OnComplete = func(c Completion) { done = append(done, c) }
	attachDriver(t, e, a, []WorkRequest{{QP: 3, Dst: 2, DestQP: 5, Bytes: 64 * 4096, Posted: 1000}})
	now := rtlmodel.Time(0)
	for counter(t, e, "nicB/rx_icrc_drops") < 64 {
		now += 100 * rtlmodel.Nanosecond
		require.NoError(t, e.Run(now))
	}
	require.Zero(t, counter(t, e, "nicA/timeouts"), "the whole message lost before the timeout")
	b.cfg.NoICRC = true
	require.NoError(t, e.Run(rtlmodel.Millisecond))
	require.True(t, e.Idle())
	require.Len(t, done, 1)
	require.Equal(t, StatusOK, done[0].Status)
	require.Equal(t, uint64(1), counter(t, e, "nicA/timeouts"), "one timeout for the whole loss")
	require.Equal(t, uint64(64), counter(t, e, "nicA/retransmits"), "each lost packet resent once")
	require.Less(t, done[0].Placed, now+rto+5*rtlmodel.Microsecond, "recovered within a few round trips of the timeout")
}
