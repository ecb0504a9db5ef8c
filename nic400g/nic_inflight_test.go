package nic400g

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// cutOnTrimCC is a window-limited congestion control for tests: a fixed
// window that a trim cuts to one packet, as NSCC or Swift cut theirs.
type cutOnTrimCC struct{ w, mtu uint64 }

func (c *cutOnTrimCC) Name() string                   { return "cut-on-trim" }
func (c *cutOnTrimCC) OnSend(rtlmodel.Time, uint32)   {}
func (c *cutOnTrimCC) OnAck(rtlmodel.Time, *AckEvent) {}
func (c *cutOnTrimCC) OnCNP(rtlmodel.Time)            {}
func (c *cutOnTrimCC) Advance(rtlmodel.Time)          {}
func (c *cutOnTrimCC) NextEvent() rtlmodel.Time       { return rtlmodel.Forever }
func (c *cutOnTrimCC) Rate() Kbps                     { return 0 }
func (c *cutOnTrimCC) Window() uint64                 { return c.w }
func (c *cutOnTrimCC) OnLoss(_ rtlmodel.Time, k LossKind) {
	if k == LossTrimmed {
		c.w = c.mtu
	}
}

// A trimmed packet's resend counts against the window as new data does.
// Over a long cable (2,000 cycles a hop, so the NACK comes 5.6 us after
// the send) the sender's window of four packets is cut to one by the
// first trim; packet 0 is trimmed, 1 and 2 pass and 3 is lost.
//
//   - Selective repeat: the SACKs of 1 and 2 leave packet 3 in flight, a
//     window's worth, so packet 0 waits for the timeout that gives 3 up
//     and is resent then, 20 us after it was sent, not on its NACK.
//   - Go-back-N: the NACK queues all four; with one packet's room the
//     resends go a round trip apart, not back to back.
//
// Counted in flight until its ACK, a trimmed packet was resent on its NACK
// whatever the window: four packets in flight against a window of one.
func TestResendWaitsForRoomInTheWindow(t *testing.T) {
	const rto = 20 * rtlmodel.Microsecond
	for _, recovery := range []Recovery{SelectiveRepeat, GoBackN} {
		ca, cb := DefaultConfig(1), DefaultConfig(2)
		ca.Recovery, cb.Recovery, ca.RTO = recovery, recovery, rto
		tries := map[uint32]int{}
		resent := map[uint32]rtlmodel.Time{}
		e, a, _, m := trimmedCable(t, ca, cb, 2000, func(d *packet.Desc, now rtlmodel.Time) wireAct {
			psn := d.Meta.PSN
			tries[psn]++
			if tries[psn] == 2 {
				resent[psn] = now
			}
			switch {
			case tries[psn] > 1:
				return wirePass
			case psn == 0:
				return wireTrim
			case psn == 3:
				return wireDrop
			}
			return wirePass
		})
		mtu := uint64(ca.MTU)
		a.ccf = func() CongestionControl { return &cutOnTrimCC{w: 4 * mtu, mtu: mtu} }
		var done []Completion
		a.OnComplete = func(c Completion) { done = append(done, c) }
		attachDriver(t, e, a, []WorkRequest{{QP: 3, Dst: 2, DestQP: 5, Bytes: 4 * mtu, Posted: 1000}})
		require.NoError(t, e.Run(rtlmodel.Millisecond))
		require.Len(t, done, 1, "recovery %v", recovery)
		require.Equal(t, StatusOK, done[0].Status, "recovery %v", recovery)
		require.Equal(t, 1, m.trims, "recovery %v", recovery)
		require.Equal(t, 1, m.drops, "recovery %v", recovery)
		require.Contains(t, resent, uint32(0), "recovery %v", recovery)
		if recovery == SelectiveRepeat {
			require.Greater(t, resent[0], rto, "packet 0 resent with packet 3 filling the window")
			require.Equal(t, uint64(1), counter(t, e, "nicA/timeouts"))
			continue
		}
		// a round trip on this cable is over 5 us; two frames back to
		// back are 0.1 us apart
		require.Contains(t, resent, uint32(1))
		require.Greater(t, resent[1]-resent[0], rtlmodel.Time(rtlmodel.Microsecond), "packet 1 resent beside packet 0, beyond the window")
	}
}
