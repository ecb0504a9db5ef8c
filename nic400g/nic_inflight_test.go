package nic400g

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// cutOnLossCC is a window-limited congestion control for tests: a fixed
// window that a loss of kind on cuts to one packet, as NSCC or Swift cut
// theirs.
type cutOnLossCC struct {
	w, mtu uint64
	on     LossKind
}

func (c *cutOnLossCC) Name() string                   { return "cut-on-loss" }
func (c *cutOnLossCC) OnSend(rtlmodel.Time, uint32)   {}
func (c *cutOnLossCC) OnAck(rtlmodel.Time, *AckEvent) {}
func (c *cutOnLossCC) OnCNP(rtlmodel.Time)            {}
func (c *cutOnLossCC) Advance(rtlmodel.Time)          {}
func (c *cutOnLossCC) NextEvent() rtlmodel.Time       { return rtlmodel.Forever }
func (c *cutOnLossCC) Rate() Kbps                     { return 0 }
func (c *cutOnLossCC) Window() uint64                 { return c.w }
func (c *cutOnLossCC) OnLoss(_ rtlmodel.Time, k LossKind) {
	if k == c.on {
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
		a.ccf = func() CongestionControl { return &cutOnLossCC{w: 4 * mtu, mtu: mtu, on: LossTrimmed} }
		done := sendOneMessage(t, e, a, 4*mtu)
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

// A timeout under selective repeat takes every packet sent before it as
// lost, out of the window's count: with all eight packets of a message
// lost on the wire and the timeout cutting the window to one packet, the
// oldest goes at once and the rest follow as ACKs return. Were the
// packets not yet released for resending still counted in flight, the
// window would hold every resend, the timeouts would run on, and the QP
// would fail with its retries run out.
func TestTimeoutTakesEverythingSentBeforeItOutOfTheWindow(t *testing.T) {
	const rto = 10 * rtlmodel.Microsecond
	ca, cb := DefaultConfig(1), DefaultConfig(2)
	ca.RTO, ca.RetryCount = rto, 2
	require.Equal(t, SelectiveRepeat, ca.Recovery)
	tries := map[uint32]int{}
	e, a, _, m := trimmedBackToBack(t, ca, cb, func(d *packet.Desc, _ rtlmodel.Time) wireAct {
		tries[d.Meta.PSN]++
		if tries[d.Meta.PSN] == 1 {
			return wireDrop
		}
		return wirePass
	})
	mtu := uint64(ca.MTU)
	a.ccf = func() CongestionControl { return &cutOnLossCC{w: 8 * mtu, mtu: mtu, on: LossTimeout} }
	done := sendOneMessage(t, e, a, 8*mtu)
	require.Equal(t, 8, m.drops)
	require.Len(t, done, 1)
	require.Equal(t, StatusOK, done[0].Status)
	require.Equal(t, uint64(1), counter(t, e, "nicA/timeouts"), "one timeout for the whole loss")
	require.Equal(t, uint64(8), counter(t, e, "nicA/retransmits"))
}
