package nic400g

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// A READ request that overtakes the one sent before it on its QP is held
// for its turn under selective repeat: the wire swaps the requests of two
// reads posted together, and both complete within a few microseconds, in
// order (3.81 and 4.63 us), with nothing issued again. Go-back-N drops it
// and NAKs the hole in front of it, and the requester issues both reads
// again, as it goes back to the NAK's PSN (4.42 and 5.24 us). Dropped
// without the NAK, the second read waited for the requester's 50 us
// timeout (55.48 us).
func TestReadRequestThatOvertakesAnotherIsHeld(t *testing.T) {
	for _, recovery := range []Recovery{SelectiveRepeat, GoBackN} {
		ca, cb := DefaultConfig(1), DefaultConfig(2)
		ca.Recovery, cb.Recovery = recovery, recovery
		ca.RTO = 50 * rtlmodel.Microsecond
		mtu := uint64(ca.MTU)
		var held *wireFrame
		swapped := false
		swap := func(f wireFrame, _ rtlmodel.Time) []wireFrame {
			if f.Frame.Meta.Flags&flagReadReq == 0 || swapped {
				return []wireFrame{f}
			}
			if held == nil {
				held = &f
				return nil
			}
			swapped = true
			return []wireFrame{f, *held}
		}
		e, a, _ := scriptedCable(t, ca, cb, swap, nil)
		reads := requesterCompletions(a)
		attachDriver(t, e, a, []WorkRequest{
			{QP: 3, Dst: 2, DestQP: 5, Op: OpRead, Bytes: 4 * mtu, Posted: 1000},
			{QP: 3, Dst: 2, DestQP: 5, Op: OpRead, Bytes: 4 * mtu, Posted: 1100},
		})
		require.NoError(t, e.Run(rtlmodel.Millisecond))
		require.Len(t, *reads, 2, "%v", recovery)
		require.Less(t, (*reads)[0].Placed, (*reads)[1].Placed, "%v: in order", recovery)
		if recovery == SelectiveRepeat {
			require.Equal(t, uint64(1), counter(t, e, "nicB/rx_read_requests_early"))
			require.Zero(t, counter(t, e, "nicA/read_reissues"))
			require.Zero(t, counter(t, e, "nicA/timeouts"))
			require.Less(t, (*reads)[1].Placed, 5*rtlmodel.Microsecond)
			continue
		}
		require.Zero(t, counter(t, e, "nicB/rx_read_requests_early"))
		require.Equal(t, uint64(1), counter(t, e, "nicA/nak_received"))
		require.Equal(t, uint64(2), counter(t, e, "nicA/read_reissues"), "go back to the first read")
		require.Zero(t, counter(t, e, "nicA/timeouts"))
		require.Less(t, (*reads)[1].Placed, 6*rtlmodel.Microsecond)
	}
}

// A READ request that overtakes the last packet of a WRITE posted before
// it on the same QP is held until that packet comes, so the read is
// served after the write is in order, and neither is sent again.
func TestReadRequestThatOvertakesWriteDataWaitsForIt(t *testing.T) {
	ca, cb := DefaultConfig(1), DefaultConfig(2)
	mtu := uint64(ca.MTU)
	var held *wireFrame
	released := false
	ab := func(f wireFrame, _ rtlmodel.Time) []wireFrame {
		m := f.Frame.Meta
		switch {
		case released:
		case m.Flags&flagData != 0 && m.Offset == 3*mtu:
			held = &f
			return nil
		case m.Flags&flagReadReq != 0 && held != nil:
			released = true
			return []wireFrame{f, *held}
		}
		return []wireFrame{f}
	}
	var firstResponse rtlmodel.Time
	ba := func(f wireFrame, now rtlmodel.Time) []wireFrame {
		if f.Frame.Meta.Flags&flagReadResp != 0 && f.Frame.Meta.Flags&flagData != 0 && firstResponse == 0 {
			firstResponse = now
		}
		return []wireFrame{f}
	}
	e, a, b := scriptedCable(t, ca, cb, ab, ba)
	done := requesterCompletions(a)
	var writeDone rtlmodel.Time
	b.OnComplete = func(c Completion) {
		if c.Responder {
			writeDone = c.Placed
		}
	}
	attachDriver(t, e, a, []WorkRequest{
		{QP: 3, Dst: 2, DestQP: 5, Op: OpWrite, Bytes: 4 * mtu, Posted: 1000},
		{QP: 3, Dst: 2, DestQP: 5, Op: OpRead, Bytes: 4 * mtu, Posted: 1100},
	})
	require.NoError(t, e.Run(rtlmodel.Millisecond))
	require.True(t, released)
	require.Len(t, *done, 2)
	require.NotZero(t, writeDone, "the write is placed at the responder")
	require.GreaterOrEqual(t, firstResponse, writeDone, "the read is served once the write is in order")
	require.Equal(t, uint64(1), counter(t, e, "nicB/rx_read_requests_early"))
	require.Zero(t, counter(t, e, "nicA/read_reissues"))
	require.Zero(t, counter(t, e, "nicA/retransmits"))
	require.Zero(t, counter(t, e, "nicA/timeouts"))
	require.Less(t, (*done)[1].Placed, 10*rtlmodel.Microsecond)
}
