package nic400g

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// A READ and a WRITE on one QP complete in order, the WRITE once the READ
// has: its ACKs may all have come before. Here the READ's 8 responses
// take PSNs 0 to 7 and the WRITE's 8 packets 8 to 15, and the responder
// acknowledges the WRITE (every 2 packets) before its responses, which
// wait for host memory, go. On the way back the wire holds the WRITE's
// first ACK (PSN 10) until the READ's last response comes, and lets it go
// just before that response, as sprayed paths may.
//
// The old ACK used to take the requester's acknowledged point back from
// 16 to 10, and the READ's completion then completed the messages that
// point covered: not the WRITE, whose ACK would never come again.
func TestStaleACKDoesNotUndoAWriteAcknowledgedBehindARead(t *testing.T) {
	ca, cb := DefaultConfig(1), DefaultConfig(2)
	cb.AckEvery = 2
	mtu := uint64(ca.MTU)
	var held *wireFrame
	replayed := false
	back := func(f wireFrame, _ rtlmodel.Time) []wireFrame {
		m := f.Frame.Meta
		switch {
		case isAck(f) && m.PSN == 10 && held == nil:
			held = &f
			return nil
		case m.Flags&(flagData|flagReadResp|flagLast) == flagData|flagReadResp|flagLast && held != nil && !replayed:
			replayed = true
			return []wireFrame{*held, f}
		}
		return []wireFrame{f}
	}
	e, a, _ := scriptedCable(t, ca, cb, nil, back)
	var done []Completion
	a.OnComplete = func(c Completion) { done = append(done, c) }
	attachDriver(t, e, a, []WorkRequest{
		{QP: 3, Dst: 2, DestQP: 5, Op: OpRead, Bytes: 8 * mtu, Posted: 1000},
		{QP: 3, Dst: 2, DestQP: 5, Op: OpWrite, Bytes: 8 * mtu, Posted: 1000},
	})
	require.NoError(t, e.Run(rtlmodel.Millisecond))
	require.True(t, replayed, "the wire replayed the old ACK before the last response")
	require.Len(t, done, 2)
	require.Equal(t, []Op{OpRead, OpWrite}, []Op{done[0].Op, done[1].Op})
	require.Equal(t, done[0].Placed, done[1].Placed, "the WRITE completes with the READ before it")
	require.Zero(t, counter(t, e, "nicA/timeouts"))
}

// sendBehindRead posts an RDMA READ of 4 packets (its request reserves
// PSNs 0 to 3) and then a SEND of 4 packets (PSNs 4 to 7) on one QP, over
// a cable whose a-to-b direction delivers the READ request only after the
// SEND's last packet, so the SEND waits at the responder behind the
// request's PSNs; back is the b-to-a direction's script. It returns the
// engine, a's requester completions and how often each SEND packet went.
func sendBehindRead(t *testing.T, back wireScript) (*rtlmodel.Engine, *[]Completion, map[uint32]int) {
	ca, cb := DefaultConfig(1), DefaultConfig(2)
	ca.RTO, ca.RetryCount = 20*rtlmodel.Microsecond, 3
	mtu := uint64(ca.MTU)
	var request *wireFrame
	sent := map[uint32]int{}
	ab := func(f wireFrame, _ rtlmodel.Time) []wireFrame {
		m := f.Frame.Meta
		switch {
		case m.Flags&flagReadReq != 0 && request == nil:
			request = &f
			return nil
		case m.Flags&flagSend != 0 && m.Flags&flagData != 0:
			sent[m.PSN]++
			if m.PSN == 7 && sent[7] == 1 && request != nil {
				return []wireFrame{f, *request}
			}
		}
		return []wireFrame{f}
	}
	e, a, _ := scriptedCable(t, ca, cb, ab, back)
	done := requesterCompletions(a)
	attachDriver(t, e, a, []WorkRequest{
		{QP: 3, Dst: 2, DestQP: 5, Op: OpRead, Bytes: 4 * mtu, Posted: 1000},
		{QP: 3, Dst: 2, DestQP: 5, Op: OpSend, Bytes: 4 * mtu, Posted: 1000},
	})
	require.NoError(t, e.Run(rtlmodel.Millisecond))
	return e, done, sent
}

// SEND packets that overtook a READ request wait in the reorder buffer
// behind the PSNs the request reserves; when the request comes, they are
// in order, and the responder acknowledges them then, as it does data
// that fills a hole. Both messages complete without a timeout.
//
// The responder used to take the request's PSNs without acknowledging
// what they let through: the requester, its SEND selectively acknowledged
// and nothing else to come, had to time out.
func TestDataBehindAReadRequestIsAcknowledgedWhenItComes(t *testing.T) {
	e, done, sent := sendBehindRead(t, nil)
	require.Len(t, *done, 2)
	require.Equal(t, StatusOK, (*done)[1].Status)
	require.Zero(t, counter(t, e, "nicA/timeouts"))
	require.Equal(t, map[uint32]int{4: 1, 5: 1, 6: 1, 7: 1}, sent)
}

// A retransmission timeout resends the packet at the left edge of the
// window even when it was selectively acknowledged (RFC 2018 §8), so an
// ACK the wire lost cannot leave a requester whose every packet is
// selectively acknowledged waiting for ever: the duplicate draws a new
// ACK. Here the wire loses the ACK the READ request's arrival draws.
//
// A timeout used to resend only packets neither acknowledged nor
// selectively acknowledged, that is none: the QP timed out until it
// failed.
func TestTimeoutResendsTheLeftEdgeEvenIfSelectivelyAcknowledged(t *testing.T) {
	lost := false
	back := func(f wireFrame, _ rtlmodel.Time) []wireFrame {
		if isAck(f) && f.Frame.Meta.PSN == 8 && !lost {
			lost = true
			return nil
		}
		return []wireFrame{f}
	}
	e, done, sent := sendBehindRead(t, back)
	require.True(t, lost)
	require.Len(t, *done, 2)
	require.Equal(t, StatusOK, (*done)[1].Status)
	require.Equal(t, uint64(1), counter(t, e, "nicA/timeouts"))
	require.Equal(t, map[uint32]int{4: 2, 5: 1, 6: 1, 7: 1}, sent, "the left edge went again")
}
