package nic400g

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// Under EQDS a packet that SACKs show lost outright (not trimmed, so the
// receiver never pulls for it) is resent without credit, which puts its
// bytes in flight again; they leave the flight when the hole is found,
// as a go-back-N rewind's do. Counted twice, once for the lost copy and
// once for the resend, and acknowledged once, each such packet's bytes
// stayed in flight for good: under sprayed paths, where SACKs find holes
// that were only late, the sender's window filled with them, it starved
// of room until its timer reset the flight, and a halving-doubling
// all-reduce over a k=4 fat tree took 3,604.54 us instead of 440.27 us.
// Here a message loses its sixth packet on the wire.
func TestEQDSSACKHoleResendLeavesNothingInFlight(t *testing.T) {
	ca, cb := DefaultConfig(1), DefaultConfig(2)
	ca.CC, cb.CC = "eqds", "eqds"
	require.Equal(t, SelectiveRepeat, ca.Recovery)
	tries := map[uint32]int{}
	e, a, _, m := trimmedBackToBack(t, ca, cb, func(d *packet.Desc, _ rtlmodel.Time) wireAct {
		tries[d.Meta.PSN]++
		if d.Meta.PSN == 5 && tries[5] == 1 {
			return wireDrop
		}
		return wirePass
	})
	p, err := eqdsParams(&ca)
	require.NoError(t, err)
	var s *EQDSSender
	a.ccf = func() CongestionControl { s = NewEQDSSender(&p); return s }
	done := sendOneMessage(t, e, a, 64<<10)
	require.Equal(t, 1, m.drops)
	require.Len(t, done, 1)
	require.Equal(t, StatusOK, done[0].Status)
	require.Equal(t, uint64(1), counter(t, e, "nicA/sack_retransmits"), "the hole found by SACKs")
	require.Zero(t, counter(t, e, "nicA/timeouts"))
	require.NotNil(t, s)
	require.Zero(t, s.InFlight(), "bytes left in flight after every packet was acknowledged")
	require.Zero(t, s.Counts().Timeouts)
}
