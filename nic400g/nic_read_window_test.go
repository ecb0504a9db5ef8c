package nic400g

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// A responder sends no response RecvWindow packets or more past the point
// the requester's feedback says its read is placed (nic_read_window.go).
// Here the first response of a 512-packet read of 1 KB packets is
// trimmed, with windows of 64: while the request for it goes and its
// response comes, the responder waits at the window, the requester drops
// nothing, and each response is sent once, the trimmed one twice.
//
// Sent on regardless, 448 responses came beyond the requester's window,
// were dropped there and sent again, and the read was placed at 50.61 us
// against 25.43 us.
func TestReadResponsesStayInTheRequesterWindow(t *testing.T) {
	e, read := readFirstTrimmed(t, 64, 64)
	require.Zero(t, counter(t, e, "nicA/rx_out_of_window"))
	require.Equal(t, uint64(windowTestPackets+1), counter(t, e, "nicB/read_responses"))
	require.Less(t, read.Placed, 30*rtlmodel.Microsecond)
}

// Responses a requester drops for coming beyond its window are asked for
// again, by range, once its next response reaches them (askBeyond). The
// requester's window is 64 and the responder's 1,024, so the responder
// sends past it while the first response of a 512-packet read of 1 KB
// packets, trimmed, waits for the request for it. The read completes
// with no timeout and no request for the rest, each dropped response
// sent once more.
//
// Before, nothing asked for them: the read waited for its timeout, and
// was placed at 244.79 us against 50.61 us.
func TestResponsesBeyondTheWindowAreAskedForAgain(t *testing.T) {
	e, read := readFirstTrimmed(t, 64, 1024)
	dropped := counter(t, e, "nicA/rx_out_of_window")
	require.NotZero(t, dropped)
	require.Zero(t, counter(t, e, "nicA/timeouts"))
	require.Zero(t, counter(t, e, "nicA/read_reissues"))
	require.Equal(t, windowTestPackets+1+dropped, counter(t, e, "nicB/read_responses"))
	require.Less(t, read.Placed, 60*rtlmodel.Microsecond)
}

// windowTestPackets is the length of readFirstTrimmed's read, in packets.
const windowTestPackets = 512

// readFirstTrimmed runs a read of windowTestPackets 1 KB packets whose
// first response is trimmed, the requester's window a and the
// responder's b, and returns the engine and the read's completion, which
// must be whole.
func readFirstTrimmed(t *testing.T, a, b int) (*rtlmodel.Engine, Completion) {
	ca, cb := DefaultConfig(1), DefaultConfig(2)
	ca.OOOReads = true
	ca.RecvWindow, cb.RecvWindow = a, b
	ca.MTU, cb.MTU = 1024, 1024
	ba, _ := trimResponses(0)
	e, requester, _ := scriptedCable(t, ca, cb, nil, ba)
	reads := requesterCompletions(requester)
	attachDriver(t, e, requester, []WorkRequest{{QP: 3, Dst: 2, DestQP: 5, Op: OpRead,
		Bytes: windowTestPackets * uint64(ca.MTU), Posted: 1000}})
	require.NoError(t, e.Run(rtlmodel.Millisecond))
	require.Len(t, *reads, 1)
	require.Equal(t, StatusOK, (*reads)[0].Status)
	return e, (*reads)[0]
}
