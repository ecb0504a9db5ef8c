package nic400g

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// HPCC and TIMELY number what they send as their ACKs number what they
// acknowledge, in payload bytes (the reference sender's snd_nxt and ACK
// sequence, FACTS 2.2 and 2.3, S [R14]): once the NIC has every byte of
// two writes acknowledged, the two sequences meet. Counted in frame bytes
// the send sequence would run ahead by the headers (and HPCC's INT) of
// every packet, and each once-per-RTT update would wait that much longer.
func TestSendSequenceCountsPayload(t *testing.T) {
	for _, cc := range []string{"hpcc", "timely"} {
		ca, cb := DefaultConfig(1), DefaultConfig(2)
		ca.CC, cb.CC = cc, cc
		e, a, _ := backToBack(t, ca, cb)
		var sent, acked func() uint64
		a.OnComplete = func(Completion) { // before the idle QP is released
			switch c := a.qps[3].cc.(type) {
			case *HPCC:
				sent, acked = func() uint64 { return c.sent }, func() uint64 { return c.acked }
			case *Timely:
				sent, acked = func() uint64 { return c.sent }, func() uint64 { return c.acked }
			}
		}
		const first, second = 1 << 20, 10_000
		attachDriver(t, e, a, []WorkRequest{
			{QP: 3, Dst: 2, DestQP: 5, Bytes: first, Posted: 1000},
			{QP: 3, Dst: 2, DestQP: 5, Bytes: second, Posted: 2000},
		})
		require.NoError(t, e.Run(rtlmodel.Forever))
		require.NotNil(t, sent, cc)
		require.Equal(t, uint64(first+second), acked(), "%s: every payload byte acknowledged", cc)
		require.Equal(t, acked(), sent(), "%s: send sequence in the ACKs' units", cc)
	}
}

// A resend does not move the send sequence on: each payload byte is
// acknowledged once, so with the fifth packet lost once on the wire (and
// resent, under selective repeat and go-back-N alike) the two sequences
// still meet once all is acknowledged. Counted at every send, the send
// sequence would run ahead by every byte resent.
func TestSendSequenceLeavesResendsOut(t *testing.T) {
	for _, cc := range []string{"hpcc", "timely"} {
		for _, recovery := range []Recovery{SelectiveRepeat, GoBackN} {
			ca, cb := DefaultConfig(1), DefaultConfig(2)
			ca.CC, cb.CC = cc, cc
			ca.RTO, ca.Recovery, cb.Recovery = 20*rtlmodel.Microsecond, recovery, recovery
			lost := false
			e, a, _, _ := trimmedBackToBack(t, ca, cb, func(d *packet.Desc, _ rtlmodel.Time) wireAct {
				if !lost && d.Meta.PSN == 4 {
					lost = true
					return wireDrop
				}
				return wirePass
			})
			var sent, acked func() uint64
			a.OnComplete = func(Completion) {
				switch c := a.qps[3].cc.(type) {
				case *HPCC:
					sent, acked = func() uint64 { return c.sent }, func() uint64 { return c.acked }
				case *Timely:
					sent, acked = func() uint64 { return c.sent }, func() uint64 { return c.acked }
				}
			}
			const bytes = 64 << 10
			attachDriver(t, e, a, []WorkRequest{{QP: 3, Dst: 2, DestQP: 5, Bytes: bytes, Posted: 1000}})
			require.NoError(t, e.Run(rtlmodel.Millisecond))
			require.True(t, lost, "%s %v: nothing was lost", cc, recovery)
			require.NotNil(t, sent, "%s %v: the write did not complete", cc, recovery)
			require.NotZero(t, counter(t, e, "nicA/retransmits"), "%s %v", cc, recovery)
			require.Equal(t, uint64(bytes), acked(), "%s %v", cc, recovery)
			require.Equal(t, acked(), sent(), "%s %v: resends counted in the send sequence", cc, recovery)
		}
	}
}
