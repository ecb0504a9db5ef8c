package nic400g

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// lossLogCC is a congestion control with a fixed window that records the
// loss signals it is given.
type lossLogCC struct {
	cutOnLossCC
	losses []LossKind
}

func (c *lossLogCC) OnLoss(_ rtlmodel.Time, k LossKind) { c.losses = append(c.losses, k) }

// logLosses gives n's QPs a window of 64 packets that logs the losses it
// hears of, and returns where the one made last is kept (nil until one is).
func logLosses(n *NIC, mtu uint64) **lossLogCC {
	var cc *lossLogCC
	n.ccf = func() CongestionControl {
		cc = &lossLogCC{cutOnLossCC: cutOnLossCC{w: 64 * mtu, mtu: mtu}}
		return cc
	}
	return &cc
}

// A READ response lost on the way is a loss to the congestion control of
// the responder that sent it, as a lost data packet is to a writer's: the
// request the requester issues again for it is the responder's NAK
// (LossNACK), and its responses' timer running out with responses counted
// in flight is its timeout (LossTimeout).
//
//   - lost response: the wire loses the read's fifth response of 16 once;
//     the requester, taking responses in order, issues the read again
//     from it, and the responder's congestion control hears of one NAK.
//   - lost feedback: the wire loses the requester's feedback on the last
//     responses, so the responder gives them up at its timer, and its
//     congestion control hears of one timeout.
//
// Before, neither reached the congestion control: in a lossy all-to-all
// of 4 MB reads sprayed over 500 KB buffers (32 hosts, NSCC), responders
// kept sending into the drops, 85 of 992 reads failed with their retries
// exhausted and 2.5 million responses were dropped by the switches,
// against 2 and 0.34 million with the signals.
func TestLostReadResponseIsALossToTheResponder(t *testing.T) {
	for _, c := range []struct {
		name           string
		loseResponse   bool
		want           LossKind
		reissues, rtos uint64
	}{
		{"lost response", true, LossNACK, 1, 0},
		{"lost feedback", false, LossTimeout, 0, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			ca, cb := DefaultConfig(1), DefaultConfig(2)
			cb.RTO = 20 * rtlmodel.Microsecond
			mtu := uint64(ca.MTU)
			const packets = 16
			lost := false
			ba := func(f wireFrame, _ rtlmodel.Time) []wireFrame {
				m := f.Frame.Meta
				if c.loseResponse && !lost && m.Flags&(flagData|flagReadResp) == flagData|flagReadResp && m.Offset == 4*mtu {
					lost = true
					return nil
				}
				return []wireFrame{f}
			}
			ab := func(f wireFrame, _ rtlmodel.Time) []wireFrame {
				m := f.Frame.Meta
				if !c.loseResponse && !lost && m.Flags&(flagAck|flagReadResp) == flagAck|flagReadResp && m.Offset == m.Length {
					lost = true
					return nil
				}
				return []wireFrame{f}
			}
			e, a, b := scriptedCable(t, ca, cb, ab, ba)
			bcc := logLosses(b, mtu)
			reads := requesterCompletions(a)
			attachDriver(t, e, a, []WorkRequest{{QP: 3, Dst: 2, DestQP: 5, Op: OpRead, Bytes: packets * mtu, Posted: 1000}})
			require.NoError(t, e.Run(rtlmodel.Millisecond))
			require.True(t, lost)
			require.Len(t, *reads, 1)
			require.Equal(t, StatusOK, (*reads)[0].Status)
			require.NotNil(t, *bcc)
			require.Equal(t, []LossKind{c.want}, (*bcc).losses)
			require.Equal(t, c.reissues, counter(t, e, "nicB/rx_read_reissues"))
			require.Equal(t, c.rtos, counter(t, e, "nicB/response_timeouts"))
		})
	}
}

// A read issued again for a gap (Config.OOOReads) whose response for the
// gap is lost again is issued again once ReorderTolerance responses held
// past the gap have come a second time: they are the responses of the
// request issued again, which passed the gap. The wire loses the fifth
// response of 32 twice; the read is issued again twice and is placed at
// 9.77 us, with no timeout.
//
// Issued again only when the gap moved, the read waited for its timeout
// (here 100 us) after the second loss.
func TestReadGapLostTwiceIsIssuedAgainWithoutATimeout(t *testing.T) {
	ca, cb := DefaultConfig(1), DefaultConfig(2)
	ca.OOOReads = true
	ca.RTO = 100 * rtlmodel.Microsecond
	mtu := uint64(ca.MTU)
	const packets = 32
	lost := 0
	ba := func(f wireFrame, _ rtlmodel.Time) []wireFrame {
		m := f.Frame.Meta
		if lost < 2 && m.Flags&(flagData|flagReadResp) == flagData|flagReadResp && m.Offset == 4*mtu {
			lost++
			return nil
		}
		return []wireFrame{f}
	}
	e, a, _ := scriptedCable(t, ca, cb, nil, ba)
	reads := requesterCompletions(a)
	attachDriver(t, e, a, []WorkRequest{{QP: 3, Dst: 2, DestQP: 5, Op: OpRead, Bytes: packets * mtu, Posted: 1000}})
	require.NoError(t, e.Run(rtlmodel.Millisecond))
	require.Equal(t, 2, lost)
	require.Len(t, *reads, 1)
	require.Equal(t, StatusOK, (*reads)[0].Status)
	require.Equal(t, uint64(2), counter(t, e, "nicA/read_reissues"))
	require.Zero(t, counter(t, e, "nicA/timeouts"))
	require.Less(t, (*reads)[0].Placed, 20*rtlmodel.Microsecond)
}
