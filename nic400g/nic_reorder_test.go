package nic400g

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// The reorder buffer's slots are the PSNs right after the expected one, so
// packets that overtook a hole by more than the buffer holds cannot take
// the room that the packets just behind the hole need.
//
// A WRITE of 64 packets to a receiver with an 8-packet reorder buffer:
// the wire loses packets 1 to 20 at their first try, and from then on
// lets each even one of them overtake the odd one before it (2, 1, 4, 3,
// ...), as a shorter path would. Packets 21 on are out of the buffer's
// reach while the hole is open and are dropped; one retransmission
// timeout resends everything from packet 1, every resend is within
// reach, and each packet goes twice.
//
// When the buffer took whatever came first while it had room, 21 to 28
// filled it: each overtaking resend found it full and was dropped, the
// hole moved on a packet or two a timeout, and the message took 10
// timeouts and 219.7 us where it now takes one and 33.5 us.
func TestReorderBufferKeepsRoomForThePacketsBehindTheHole(t *testing.T) {
	ca, cb := DefaultConfig(1), DefaultConfig(2)
	cb.ReorderPackets = 8
	ca.RTO = 20 * rtlmodel.Microsecond
	tries := map[uint32]int{}
	e, a, _, m := trimmedBackToBack(t, ca, cb, func(d *packet.Desc, _ rtlmodel.Time) wireAct {
		psn := d.Meta.PSN
		tries[psn]++
		switch {
		case psn < 1 || psn > 20:
			return wirePass
		case tries[psn] == 1:
			return wireDrop
		case psn%2 == 1:
			return wireSwap
		}
		return wirePass
	})
	done := sendOneMessage(t, e, a, 64*uint64(ca.MTU))
	require.Equal(t, 20, m.drops)
	require.Len(t, done, 1)
	require.Equal(t, StatusOK, done[0].Status)
	require.Equal(t, uint64(1), counter(t, e, "nicA/timeouts"))
	require.Greater(t, counter(t, e, "nicB/reorder_full_drops"), uint64(0), "packets beyond the buffer's reach dropped")
	for psn := uint32(1); psn < 64; psn++ {
		require.Equal(t, 2, tries[psn], "packet %d resent once, its resend taken", psn)
	}
	require.Less(t, done[0].Placed, 40*rtlmodel.Microsecond)
}
