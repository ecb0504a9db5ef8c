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

// A responder counts its READ responses in its QP's flight until the
// requester's feedback says they are placed, and gives them up when none
// has come for an RTO: the requester issues the read again for whatever
// it still lacks. Here the requester's feedback on the read's last four
// responses is lost, and the responder, whose window holds two packets,
// then writes to the requester on the same QP: the write goes once the
// responses' timer has run out, 20 us after the last response.
//
// Counted until their feedback came, the four responses held the window
// shut for good: the write never went.
func TestLostReadFeedbackDoesNotHoldTheResponderWindow(t *testing.T) {
	ca, cb := DefaultConfig(1), DefaultConfig(2)
	cb.RTO = 20 * rtlmodel.Microsecond
	mtu := uint64(ca.MTU)
	var lastResp rtlmodel.Time
	lost := 0
	ab := func(f wireFrame, _ rtlmodel.Time) []wireFrame {
		if m := f.Frame.Meta; m.Flags&(flagAck|flagReadResp) == flagAck|flagReadResp && m.Offset == 8*mtu {
			lost++
			return nil
		}
		return []wireFrame{f}
	}
	ba := func(f wireFrame, now rtlmodel.Time) []wireFrame {
		if f.Frame.Meta.Flags&(flagData|flagReadResp|flagLast) == flagData|flagReadResp|flagLast {
			lastResp = now
		}
		return []wireFrame{f}
	}
	e, a, b := scriptedCable(t, ca, cb, ab, ba)
	b.ccf = func() CongestionControl { return &cutOnLossCC{w: 2 * mtu, mtu: mtu, on: LossTrimmed} }
	var reads, writes []Completion
	a.OnComplete = func(c Completion) {
		if !c.Responder {
			reads = append(reads, c)
		}
	}
	b.OnComplete = func(c Completion) {
		if !c.Responder {
			writes = append(writes, c)
		}
	}
	attachDriver(t, e, a, []WorkRequest{{QP: 3, Dst: 2, DestQP: 5, Op: OpRead, Bytes: 8 * mtu, Posted: 1000}})
	attachDriver(t, e, b, []WorkRequest{{QP: 5, Dst: 1, DestQP: 3, Op: OpWrite, Bytes: 4 * mtu, Posted: 10 * rtlmodel.Microsecond}})
	require.NoError(t, e.Run(rtlmodel.Millisecond))
	require.Equal(t, 1, lost, "the feedback on the last responses lost")
	require.Len(t, reads, 1)
	require.Len(t, writes, 1, "the responder's write completes")
	require.Equal(t, StatusOK, writes[0].Status)
	require.Greater(t, writes[0].Placed, lastResp+cb.RTO, "the write waited for the responses' timer")
	require.Less(t, writes[0].Placed, lastResp+cb.RTO+10*rtlmodel.Microsecond)
}

// A responder counts each read's responses in flight by how far it sent
// them and how far the requester says it placed them. Here the wire loses
// the last response of read A (4 packets) at its first try; read B (4
// packets) is served and completes meanwhile, and only the requester's
// read timeout finds A's gap and issues A again, from its last packet.
// Every response counted leaves the flight with its feedback, so when the
// responder, its window cut to one packet, then writes to the requester
// on the same QP, nothing holds the window and the write goes at once.
//
// Remembering only the last read it had finished (B), the responder kept
// A's lost response counted in flight for as long as the QP stayed busy;
// in a fabric run mixing reads and writes on QPs over trimming switches,
// that held a QP's window shut until the fabric went quiet with flows
// unfinished.
func TestReissuedReadAfterALaterOneLeavesNothingInFlight(t *testing.T) {
	ca, cb := DefaultConfig(1), DefaultConfig(2)
	ca.RTO = 20 * rtlmodel.Microsecond
	mtu := uint64(ca.MTU)
	dropped := false
	var bLast, reissued rtlmodel.Time
	ba := func(f wireFrame, now rtlmodel.Time) []wireFrame {
		if f.Frame.Meta.Flags&(flagData|flagReadResp|flagLast) == flagData|flagReadResp|flagLast {
			if !dropped {
				dropped = true
				return nil
			}
			if bLast == 0 {
				bLast = now
			}
		}
		return []wireFrame{f}
	}
	ab := func(f wireFrame, now rtlmodel.Time) []wireFrame {
		if f.Frame.Meta.Flags&flagReadReq != 0 && f.Frame.Meta.Offset > 0 && reissued == 0 {
			reissued = now
		}
		return []wireFrame{f}
	}
	e, a, b := scriptedCable(t, ca, cb, ab, ba)
	var bcc *cutOnLossCC
	b.ccf = func() CongestionControl {
		bcc = &cutOnLossCC{w: 8 * mtu, mtu: mtu, on: LossTrimmed}
		return bcc
	}
	var reads, writes []Completion
	a.OnComplete = func(c Completion) {
		if !c.Responder {
			reads = append(reads, c)
		}
	}
	b.OnComplete = func(c Completion) {
		if !c.Responder {
			writes = append(writes, c)
		}
	}
	const writeAt = 100 * rtlmodel.Microsecond
	attachDriver(t, e, a, []WorkRequest{
		{QP: 3, Dst: 2, DestQP: 5, Op: OpRead, Bytes: 4 * mtu, Posted: 1000},
		{QP: 3, Dst: 2, DestQP: 5, Op: OpRead, Bytes: 4 * mtu, Posted: 1000},
	})
	attachDriver(t, e, b, []WorkRequest{{QP: 5, Dst: 1, DestQP: 3, Op: OpWrite, Bytes: 2 * mtu, Posted: writeAt}})
	require.NoError(t, e.Run(writeAt-rtlmodel.Microsecond))
	require.True(t, dropped)
	require.Len(t, reads, 2)
	require.Less(t, bLast, reissued, "B's responses all went before A was issued again")
	require.Equal(t, uint64(1), counter(t, e, "nicA/read_reissues"), "A alone issued again")
	require.Zero(t, b.qps[5].inflight, "every response counted in flight has left it")
	bcc.w = mtu
	require.NoError(t, e.Run(rtlmodel.Millisecond))
	require.Len(t, writes, 1, "the responder's write completes")
	require.Less(t, writes[0].Placed, writeAt+10*rtlmodel.Microsecond, "at once")
}

// Several reads on one QP under random frame loss in both directions,
// with a window-based congestion control at the responder: every read
// completes, and when the fabric is quiet the responder counts nothing of
// its responses in flight and keeps no record of them.
func TestReadFlightAccountsForEveryResponse(t *testing.T) {
	const reads, bytes = 8, 256 << 10
	ber := berForFrameLoss(1e-2, 4178*8*257/256/5140.0)
	ca, cb := DefaultConfig(1), DefaultConfig(2)
	for _, c := range []*Config{&ca, &cb} {
		c.CC = "nscc"
		c.Wire.PreFECBER = ber
		c.RTO = 20 * rtlmodel.Microsecond
	}
	ca.Wire.Seed, cb.Wire.Seed = 31, 32
	e, a, b := backToBack(t, ca, cb)
	var done []Completion
	a.OnComplete = func(c Completion) {
		if !c.Responder {
			done = append(done, c)
		}
	}
	var wrs []WorkRequest
	for i := 0; i < reads; i++ {
		wrs = append(wrs, WorkRequest{QP: 3, Dst: 2, DestQP: 5, Op: OpRead, Bytes: bytes, Posted: 1000})
	}
	attachDriver(t, e, a, wrs)
	require.NoError(t, e.Run(rtlmodel.Forever))
	require.Len(t, done, reads)
	for _, c := range done {
		require.Equal(t, StatusOK, c.Status)
	}
	_, lostB := b.Phy().Wire().Frames()
	_, lostA := a.Phy().Wire().Frames()
	require.Greater(t, lostA+lostB, uint64(5), "frames were lost both ways")
	if q := b.qps[5]; q != nil {
		require.Zero(t, q.inflight, "responses counted in flight at the end")
		require.Empty(t, q.rspOut)
	}
	require.Zero(t, a.pool.Live())
}

// The requester's feedback on responses goes after AckDelay at the
// latest, as a data ACK does, not only every AckEvery responses: a
// responder whose window holds fewer than AckEvery responses (one here)
// gets it and sends the next, so an 8-packet read takes about a round
// trip and an AckDelay a packet and is never issued again.
//
// Sent only every AckEvery responses and on the last, the feedback never
// came to such a responder, which waited for the requester's read
// timeout to issue the read again, once for each response.
func TestReadFeedbackGoesAfterAckDelayAtTheLatest(t *testing.T) {
	ca, cb := DefaultConfig(1), DefaultConfig(2)
	ca.RTO = 20 * rtlmodel.Microsecond
	mtu := uint64(ca.MTU)
	e, a, b := backToBack(t, ca, cb)
	b.ccf = func() CongestionControl { return &cutOnLossCC{w: mtu, mtu: mtu, on: LossTrimmed} }
	var done []Completion
	a.OnComplete = func(c Completion) { done = append(done, c) }
	attachDriver(t, e, a, []WorkRequest{{QP: 3, Dst: 2, DestQP: 5, Op: OpRead, Bytes: 8 * mtu, Posted: 1000}})
	require.NoError(t, e.Run(rtlmodel.Millisecond))
	require.Len(t, done, 1)
	require.Zero(t, counter(t, e, "nicA/read_reissues"))
	require.Less(t, done[0].Placed, 8*(ca.AckDelay+5*rtlmodel.Microsecond))
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
	var done []Completion
	a.OnComplete = func(c Completion) {
		if !c.Responder {
			done = append(done, c)
		}
	}
	attachDriver(t, e, a, []WorkRequest{
		{QP: 3, Dst: 2, DestQP: 5, Op: OpRead, Bytes: 4 * mtu, Posted: 1000},
		{QP: 3, Dst: 2, DestQP: 5, Op: OpSend, Bytes: 4 * mtu, Posted: 1000},
	})
	require.NoError(t, e.Run(rtlmodel.Millisecond))
	return e, &done, sent
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
