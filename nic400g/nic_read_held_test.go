package nic400g

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// The requester's read feedback says how many bytes it holds past the
// point placed in order (Config.OOOReads), and the responder does not
// count them in flight. Here the responder's window holds four
// responses and the first is trimmed: the three past it are held at the
// requester and, with the first's request queued behind the job serving
// the rest of the read, only their leaving the flight lets the read go
// on. The read is placed at 7.67 us, with no responses given up at the
// responder's timer.
//
// Counted in flight until the gap filled, they held the window shut
// until that timer (100 us here) gave them up, again and again: the
// read was placed at 1.20 ms, after 12 of them.
func TestHeldReadResponsesLeaveTheResponderWindow(t *testing.T) {
	ca, cb := DefaultConfig(1), DefaultConfig(2)
	ca.OOOReads = true
	cb.RTO = 100 * rtlmodel.Microsecond
	ca.RTO = 200 * rtlmodel.Microsecond
	mtu := uint64(ca.MTU)
	const packets = 16
	ba, trimmed := trimResponses(0)
	e, a, b := scriptedCable(t, ca, cb, nil, ba)
	b.ccf = func() CongestionControl { return &cutOnLossCC{w: 4 * mtu, mtu: mtu} }
	reads := requesterCompletions(a)
	attachDriver(t, e, a, []WorkRequest{{QP: 3, Dst: 2, DestQP: 5, Op: OpRead, Bytes: packets * mtu, Posted: 1000}})
	require.NoError(t, e.Run(rtlmodel.Millisecond))
	require.Equal(t, 1, *trimmed)
	require.Len(t, *reads, 1)
	require.Equal(t, StatusOK, (*reads)[0].Status)
	require.Zero(t, counter(t, e, "nicB/response_timeouts"))
	require.Equal(t, uint64(packets+1), counter(t, e, "nicB/read_responses"))
	require.Less(t, (*reads)[0].Placed, 10*rtlmodel.Microsecond)
}
