package nic400g

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// slowStartPacer paces at 1 Mb/s, as a Swift window under one packet
// does, until its first acknowledgement opens a window of w bytes.
type slowStartPacer struct {
	cutOnLossCC
	paced bool
}

func (c *slowStartPacer) OnAck(rtlmodel.Time, *AckEvent) { c.paced = false }
func (c *slowStartPacer) pacing() bool                   { return c.paced }
func (c *slowStartPacer) Rate() Kbps {
	if c.paced {
		return 1000
	}
	return 0
}
func (c *slowStartPacer) Window() uint64 {
	if c.paced {
		return 0
	}
	return c.w
}

// Read feedback that opens the window of a responder pacing under one
// packet (Swift) ends the pacing gap, as a data ACK does for a writer:
// here the first response, paced at 1 Mb/s, would hold the next for 33
// ms; the feedback on it lets the rest go, and the read is placed within
// 10 us. Before, the read feedback left the gap standing, and a Swift
// responder whose window had fallen under a packet in a trimmed incast
// sent its next response milliseconds later, past the requester's
// retries.
func TestReadFeedbackEndsThePacingGap(t *testing.T) {
	ca, cb := DefaultConfig(1), DefaultConfig(2)
	mtu := uint64(ca.MTU)
	e, a, b := scriptedCable(t, ca, cb, nil, nil)
	b.ccf = func() CongestionControl {
		return &slowStartPacer{cutOnLossCC: cutOnLossCC{w: 64 * mtu, mtu: mtu}, paced: true}
	}
	reads := requesterCompletions(a)
	attachDriver(t, e, a, []WorkRequest{{QP: 3, Dst: 2, DestQP: 5, Op: OpRead, Bytes: 8 * mtu, Posted: 1000}})
	require.NoError(t, e.Run(rtlmodel.Millisecond))
	require.Len(t, *reads, 1)
	require.Equal(t, StatusOK, (*reads)[0].Status)
	require.Less(t, (*reads)[0].Placed, 10*rtlmodel.Microsecond)
}
