package nic400g

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// A read issued again that reaches the responder after the requester has
// placed the whole read is not served on: the requester's feedback that
// the read is placed stops the job, and when that feedback is lost, the
// requester's answer to the first response it no longer waits for does.
//
// The wire holds back read X's third response (of 64) until its
// thirteenth has passed, so the requester, placing responses out of order
// (Config.OOOReads), issues X again from the third once the third is
// overdue (suspectGap). The other wire holds that request back until X
// is wholly placed and the requester has sent its feedback, which it
// lets through or loses. Read Y, posted on the same QP once X is done,
// is served after the request issued again: it is placed at 13.49 us,
// with 80 responses in all when the feedback comes and 90 when the
// responses of about a round trip go before the answer stops them.
//
// Served in full, the request issued again sent X's last 62 responses a
// second time, ahead of Y, which was placed at 17.16 us (142 responses;
// measured with the third response held until the seventh passed, which
// issued X again before the requester waited for a response to be
// overdue).
func TestReadIssuedAgainAfterItCompletedIsNotServed(t *testing.T) {
	for _, loseFeedback := range []bool{false, true} {
		ca, cb := DefaultConfig(1), DefaultConfig(2)
		ca.OOOReads = true
		mtu := uint64(ca.MTU)
		const xPackets = 64
		var held *wireFrame
		released := false
		ba := func(f wireFrame, _ rtlmodel.Time) []wireFrame {
			m := f.Frame.Meta
			if m.Flags&(flagData|flagReadResp) != flagData|flagReadResp || m.Length != xPackets*mtu {
				return []wireFrame{f}
			}
			switch {
			case m.Offset == 2*mtu && held == nil:
				held = &f
				return nil
			case m.Offset == 12*mtu && held != nil && !released:
				released = true
				return []wireFrame{f, *held}
			}
			return []wireFrame{f}
		}
		var again *wireFrame
		ab := func(f wireFrame, _ rtlmodel.Time) []wireFrame {
			m := f.Frame.Meta
			switch {
			case m.Flags&flagReadReq != 0 && m.Offset == 2*mtu:
				again = &f // X issued again: held until X is placed
				return nil
			case m.Flags&(flagAck|flagReadResp) == flagAck|flagReadResp && m.Length == xPackets*mtu && m.Offset == m.Length && again != nil:
				out := []wireFrame{*again, f}
				if loseFeedback {
					out = out[:1]
				}
				again = nil
				return out
			}
			return []wireFrame{f}
		}
		e, a, _ := scriptedCable(t, ca, cb, ab, ba)
		reads := requesterCompletions(a)
		attachDriver(t, e, a, []WorkRequest{
			{QP: 3, Dst: 2, DestQP: 5, Op: OpRead, Bytes: xPackets * mtu, Posted: 1000},
			{QP: 3, Dst: 2, DestQP: 5, Op: OpRead, Bytes: 16 * mtu, Posted: 10 * rtlmodel.Microsecond},
		})
		require.NoError(t, e.Run(rtlmodel.Millisecond))
		require.Len(t, *reads, 2)
		require.Equal(t, uint64(1), counter(t, e, "nicA/read_reissues"))
		require.Equal(t, uint64(1), counter(t, e, "nicB/read_jobs_dropped"), "the job of the request issued again")
		require.Less(t, (*reads)[1].Placed, 14*rtlmodel.Microsecond, "Y is not kept waiting behind X's job")
		responses := counter(t, e, "nicB/read_responses")
		if !loseFeedback {
			require.Equal(t, uint64(xPackets+16), responses, "no response of X sent twice")
			continue
		}
		require.Greater(t, responses, uint64(xPackets+16), "X's job started")
		require.Less(t, responses, uint64(xPackets+16+20), "and stopped within about a round trip")
	}
}
