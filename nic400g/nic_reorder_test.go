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
// reach while the hole is open and are dropped. The first drop draws one
// NAK at packet 1, on which the sender resends everything no SACK has
// reported (packets 1 to 31, all it had sent); every resend is within
// reach, and the message completes without a timeout.
//
// When the buffer took whatever came first while it had room, 21 to 28
// filled it: each overtaking resend found it full and was dropped, the
// hole moved on a packet or two a timeout, and the message took 10
// timeouts and 219.7 us. With the slots after the expected PSN but the
// drops unreported, it took one timeout and 33.5 us; it now takes 10.7 us.
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
	require.Zero(t, counter(t, e, "nicA/timeouts"))
	require.Equal(t, uint64(1), counter(t, e, "nicA/nak_received"), "one NAK for the hole")
	require.Equal(t, uint64(11), counter(t, e, "nicB/reorder_full_drops"), "packets 21 to 31 beyond the buffer's reach dropped")
	for psn := uint32(1); psn < 64; psn++ {
		want := 1
		if psn <= 31 {
			want = 2
		}
		require.Equal(t, want, tries[psn], "packet %d", psn)
	}
	require.Less(t, done[0].Placed, 12*rtlmodel.Microsecond)
}
