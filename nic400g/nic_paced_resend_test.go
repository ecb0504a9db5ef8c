package nic400g

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// A Swift sender whose window is under one packet paces one packet every
// srtt·MSS/cwnd, here 80 us with a quarter-packet window and no RTT sample
// yet (the 20 us base target), far longer than the 10 us timeout. Its
// first packet is lost (the peer drops everything until the sender times
// out). Then:
//
//   - The timeout queues the packet for resending, and the timer waits
//     for that resend instead of timing a packet the sender holds itself:
//     one timeout in all, where counting on would fail the QP at its third
//     (RetryCount 2) before the pacer let the resend go.
//   - The resend's ACK opens the window to more than a packet (an RTT
//     under the target adds a packet's worth to a window under one MSS),
//     so the other three packets go at once in window mode, as htsim's
//     Swift cancels its pacer then, not a pacing gap after the resend.
func TestPacedResendIsTimedFromItsDeparture(t *testing.T) {
	const rto = 10 * rtlmodel.Microsecond
	ca, cb := DefaultConfig(1), DefaultConfig(2)
	ca.NoICRC, ca.RTO, ca.RetryCount, ca.CC = true, rto, 2, "swift"
	e, a, b := backToBack(t, ca, cb)
	p := DefaultSwiftParams(400e9)
	p.InitialCwnd = uint64(p.MSS) / 4
	a.ccf = func() CongestionControl { s, err := NewSwift(&p); require.NoError(t, err); return s }
	var done []Completion
	a.OnComplete = func(c Completion) { done = append(done, c) }
	attachDriver(t, e, a, []WorkRequest{{QP: 3, Dst: 2, DestQP: 5, Bytes: 4 * 4096, Posted: 1000}})

	now := rtlmodel.Time(0)
	for counter(t, e, "nicA/timeouts") == 0 {
		now += 100 * rtlmodel.Nanosecond
		require.NoError(t, e.Run(now))
		require.Less(t, now, rtlmodel.Time(rtlmodel.Millisecond), "no timeout")
	}
	require.Equal(t, uint64(1), counter(t, e, "nicB/rx_icrc_drops"), "one packet sent before the timeout, and lost")
	b.cfg.NoICRC = true // the peer takes what it is sent from now on

	require.NoError(t, e.Run(rtlmodel.Millisecond))
	require.True(t, e.Idle())
	require.Len(t, done, 1)
	require.Equal(t, StatusOK, done[0].Status)
	require.Equal(t, uint64(1), counter(t, e, "nicA/timeouts"), "no timeout while the resend waited for its pacing slot")
	require.Equal(t, uint64(1), counter(t, e, "nicA/retransmits"))
	require.Zero(t, counter(t, e, "nicA/qp_retry_exceeded"))
	// the resend leaves at the first send's pacing slot, about 81 us; the
	// window it opens sends the rest within a few round trips, where the
	// pacing gap set at the resend would have held them past 160 us
	require.Greater(t, done[0].Placed, rtlmodel.Time(80*rtlmodel.Microsecond), "the resend waited for the pacer")
	require.Less(t, done[0].Placed, rtlmodel.Time(100*rtlmodel.Microsecond), "the rest went in window mode")
}
