package nic400g

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// counter reads a NIC counter by its path.
func counter(t *testing.T, e *rtlmodel.Engine, name string) uint64 {
	t.Helper()
	m, ok := e.Stats().Lookup(name)
	require.True(t, ok, name)
	return m.(*rtlmodel.Counter).Value()
}

// A peer that never answers (it drops every frame: the sender seals no
// ICRC, the receiver checks it) makes the QP time out RetryCount + 1 times
// in a row and fail, instead of resending forever: the message it was
// sending completes with StatusRetryExceeded, the one queued behind it and
// one posted after the failure with StatusFlushed, and the run ends.
func TestQPFailsWhenItsRetriesRunOut(t *testing.T) {
	const rto = 10 * rtlmodel.Microsecond
	for _, recovery := range []Recovery{SelectiveRepeat, GoBackN} {
		ca, cb := DefaultConfig(1), DefaultConfig(2)
		ca.NoICRC, ca.RTO, ca.RetryCount, ca.Recovery = true, rto, 2, recovery
		e, a, _ := backToBack(t, ca, cb)
		var done []Completion
		a.OnComplete = func(c Completion) { done = append(done, c) }
		attachDriver(t, e, a, []WorkRequest{
			{QP: 3, Dst: 2, DestQP: 5, Bytes: 8192, Posted: 1000},
			{QP: 3, Dst: 2, DestQP: 5, Bytes: 4096, Posted: 1100},
			{QP: 3, Dst: 2, DestQP: 5, Bytes: 4096, Posted: 100 * rtlmodel.Microsecond},
		})
		require.NoError(t, e.Run(rtlmodel.Millisecond), "recovery %v", recovery)
		require.True(t, e.Idle(), "recovery %v: still resending after 1 ms", recovery)
		require.Len(t, done, 3, "recovery %v", recovery)
		require.Equal(t, []CompletionStatus{StatusRetryExceeded, StatusFlushed, StatusFlushed},
			[]CompletionStatus{done[0].Status, done[1].Status, done[2].Status}, "recovery %v", recovery)
		require.Equal(t, uint64(8192), done[0].Bytes)
		// the first packet leaves within a few microseconds of its
		// doorbell; the QP fails at its third timeout after that
		require.InDelta(t, float64(3*rto), float64(done[0].Placed), float64(5*rtlmodel.Microsecond), "recovery %v", recovery)
		require.Equal(t, done[0].Placed, done[1].Placed, "flushed with the failure")
		require.GreaterOrEqual(t, done[2].Placed, rtlmodel.Time(100*rtlmodel.Microsecond), "completed when posted")
		require.Equal(t, uint64(3), counter(t, e, "nicA/timeouts"), "recovery %v", recovery)
		require.Equal(t, uint64(1), counter(t, e, "nicA/qp_retry_exceeded"))
		require.Equal(t, uint64(3), counter(t, e, "nicA/wr_flushed"))
		require.Positive(t, counter(t, e, "nicB/rx_icrc_drops"))
		require.Zero(t, counter(t, e, "nicA/tx_completions"))
	}
}

// The retries count timeouts in a row: a peer that drops everything (it
// checks an ICRC the sender does not seal) until the sender times out,
// then takes what it is sent for a while, four times over, makes the QP
// time out more often than RetryCount allows in a row, each timeout
// followed by an acknowledgement that moves it on, and the message
// completes.
func TestRetriesCountOnlyTimeoutsInARow(t *testing.T) {
	const rto = 10 * rtlmodel.Microsecond
	for _, recovery := range []Recovery{SelectiveRepeat, GoBackN} {
		ca, cb := DefaultConfig(1), DefaultConfig(2)
		ca.NoICRC, ca.RTO, ca.RetryCount, ca.Recovery = true, rto, 2, recovery
		e, a, b := backToBack(t, ca, cb)
		var done []Completion
		a.OnComplete = func(c Completion) { done = append(done, c) }
		attachDriver(t, e, a, []WorkRequest{{QP: 3, Dst: 2, DestQP: 5, Bytes: 4 << 20, Posted: 1000}})
		now := rtlmodel.Time(0)
		for round := uint64(1); round <= 4; round++ {
			b.cfg.NoICRC = false // the peer drops everything
			for counter(t, e, "nicA/timeouts") < round {
				now += rtlmodel.Microsecond
				require.NoError(t, e.Run(now))
				require.Less(t, now, rtlmodel.Time(rtlmodel.Millisecond), "recovery %v: no timeout %d", recovery, round)
			}
			b.cfg.NoICRC = true // the peer takes what it is sent
			now += 3 * rtlmodel.Microsecond
			require.NoError(t, e.Run(now))
			require.Empty(t, done, "recovery %v: the message should outlast round %d", recovery, round)
		}
		require.NoError(t, e.Run(now+rtlmodel.Millisecond))
		require.True(t, e.Idle())
		require.Len(t, done, 1, "recovery %v", recovery)
		require.Equal(t, StatusOK, done[0].Status, "recovery %v", recovery)
		timeouts := counter(t, e, "nicA/timeouts")
		require.Greater(t, timeouts, uint64(ca.RetryCount+1), "recovery %v: more timeouts than the QP may take in a row", recovery)
		require.Zero(t, counter(t, e, "nicA/qp_retry_exceeded"))
	}
}

// RetryCount is a 3-bit field.
func TestRetryCountRange(t *testing.T) {
	for _, n := range []int{-1, MaxRetryCount + 1} {
		c := DefaultConfig(1)
		c.RetryCount = n
		require.ErrorContains(t, c.validate(), "RetryCount")
	}
	c := DefaultConfig(1)
	require.Equal(t, MaxRetryCount, c.RetryCount)
	require.NoError(t, c.validate())
}

// A message longer than MaxMessageBytes, which no work request's 32-bit
// length can name, fails its QP when segmenting comes to it: it completes
// with StatusLocalLength (IBV_WC_LOC_LEN_ERR), the one queued behind it
// and one posted later with StatusFlushed, after the message before it
// has completed; nothing of it reaches the wire.
func TestMessageLongerThanAWorkRequestHoldsFailsItsQP(t *testing.T) {
	e, a, _ := backToBack(t, DefaultConfig(1), DefaultConfig(2))
	var done []Completion
	a.OnComplete = func(c Completion) { done = append(done, c) }
	attachDriver(t, e, a, []WorkRequest{
		{QP: 3, Dst: 2, DestQP: 5, Bytes: 8192, Posted: 1000},
		{QP: 3, Dst: 2, DestQP: 5, Bytes: MaxMessageBytes + 1, Posted: 20 * rtlmodel.Microsecond},
		{QP: 3, Dst: 2, DestQP: 5, Bytes: 4096, Posted: 20*rtlmodel.Microsecond + 100},
		{QP: 3, Dst: 2, DestQP: 5, Bytes: 4096, Posted: 40 * rtlmodel.Microsecond},
	})
	require.NoError(t, e.Run(rtlmodel.Millisecond))
	require.True(t, e.Idle())
	require.Len(t, done, 4)
	require.Equal(t, []CompletionStatus{StatusOK, StatusLocalLength, StatusFlushed, StatusFlushed},
		[]CompletionStatus{done[0].Status, done[1].Status, done[2].Status, done[3].Status})
	require.Equal(t, uint64(MaxMessageBytes+1), done[1].Bytes)
	require.Greater(t, done[1].Placed, rtlmodel.Time(20*rtlmodel.Microsecond))
	require.Equal(t, uint64(1), counter(t, e, "nicA/qp_length_errors"))
	require.Zero(t, counter(t, e, "nicA/qp_retry_exceeded"))
	require.Equal(t, uint64(3), counter(t, e, "nicA/wr_flushed"))
	require.Equal(t, uint64(2), counter(t, e, "nicA/tx_data"), "the first message's packets alone")
}

// A message of exactly MaxMessageBytes is accepted: segmenting starts.
func TestLongestMessageIsSent(t *testing.T) {
	e, a, _ := backToBack(t, DefaultConfig(1), DefaultConfig(2))
	var done []Completion
	a.OnComplete = func(c Completion) { done = append(done, c) }
	attachDriver(t, e, a, []WorkRequest{{QP: 3, Dst: 2, DestQP: 5, Bytes: MaxMessageBytes, Posted: 1000}})
	require.NoError(t, e.Run(20*rtlmodel.Microsecond))
	require.Empty(t, done)
	require.Positive(t, counter(t, e, "nicA/tx_data"))
	require.Zero(t, counter(t, e, "nicA/qp_length_errors"))
}
