package nic400g

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// Responses that only overtake one another are not taken for lost
// (suspectGap): a wire holds one response in eight of a 64-packet read
// back until the next four have passed, as a slower path would, and the
// requester, placing out of order (Config.OOOReads), waits for each
// gap's response until it is overdue, which it never is here. The read
// is placed at 8.82 us with 64 responses, none issued again.
//
// Issued again as soon as three responses were held past a gap, the read
// went out again 7 times, 82 responses were sent, 18 of them arrived
// twice, and it was placed at 15.75 us.
func TestReorderedReadResponsesAreNotIssuedAgain(t *testing.T) {
	ca, cb := DefaultConfig(1), DefaultConfig(2)
	ca.OOOReads = true
	mtu := uint64(ca.MTU)
	const packets = 64
	var held *wireFrame
	passed := 0
	ba := func(f wireFrame, _ rtlmodel.Time) []wireFrame {
		m := f.Frame.Meta
		if m.Flags&(flagData|flagReadResp) != flagData|flagReadResp || m.Length != packets*mtu {
			return []wireFrame{f}
		}
		if k := m.Offset / mtu; held == nil && k%8 == 4 && k < packets-8 {
			held, passed = &f, 0
			return nil
		}
		out := []wireFrame{f}
		if held != nil {
			if passed++; passed == 4 {
				out = append(out, *held)
				held = nil
			}
		}
		return out
	}
	e, a, _ := scriptedCable(t, ca, cb, nil, ba)
	reads := requesterCompletions(a)
	attachDriver(t, e, a, []WorkRequest{{QP: 3, Dst: 2, DestQP: 5, Op: OpRead, Bytes: packets * mtu, Posted: 1000}})
	require.NoError(t, e.Run(rtlmodel.Millisecond))
	require.Len(t, *reads, 1)
	require.Equal(t, StatusOK, (*reads)[0].Status)
	require.Zero(t, counter(t, e, "nicA/timeouts"))
	require.Zero(t, counter(t, e, "nicA/read_reissues"))
	require.Zero(t, counter(t, e, "nicA/rx_duplicate"))
	require.Less(t, (*reads)[0].Placed, 10*rtlmodel.Microsecond)
}
