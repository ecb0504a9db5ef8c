package nic400g

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// With Config.OOOReads the requester places READ responses that arrive
// out of order where their PSNs say: the wire here swaps every pair of
// responses (1, 0, 3, 2, ...), and the read completes with every byte,
// nothing issued again and nothing dropped. Without it the requester
// takes responses in PSN order, drops each one that overtook another and
// issues the read again from the gap.
func TestOutOfOrderReadResponsesArePlaced(t *testing.T) {
	for _, ooo := range []bool{false, true} {
		ca, cb := DefaultConfig(1), DefaultConfig(2)
		ca.OOOReads = ooo
		mtu := uint64(ca.MTU)
		var held *wireFrame
		swap := func(f wireFrame, _ rtlmodel.Time) []wireFrame {
			if f.Frame.Meta.Flags&(flagData|flagReadResp) != flagData|flagReadResp {
				return []wireFrame{f}
			}
			if held == nil {
				held = &f
				return nil
			}
			out := []wireFrame{f, *held}
			held = nil
			return out
		}
		e, a, _ := scriptedCable(t, ca, cb, nil, swap)
		var done []Completion
		a.OnComplete = func(c Completion) { done = append(done, c) }
		attachDriver(t, e, a, []WorkRequest{{QP: 3, Dst: 2, DestQP: 5, Op: OpRead, Bytes: 16 * mtu, Posted: 1000}})
		require.NoError(t, e.Run(rtlmodel.Millisecond))
		require.Len(t, done, 1, "ooo %v", ooo)
		require.Equal(t, 16*mtu, done[0].Bytes)
		reissues, drops := counter(t, e, "nicA/read_reissues"), counter(t, e, "nicA/rx_ooo_dropped")
		if ooo {
			require.Zero(t, reissues)
			require.Zero(t, drops)
			require.Equal(t, uint64(8), counter(t, e, "nicA/rx_out_of_order"), "every second response placed ahead of its pair")
		} else {
			require.NotZero(t, reissues)
			require.NotZero(t, drops)
		}
	}
}
