package nic400g

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

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
	reads, writes := requesterCompletions(a), requesterCompletions(b)
	attachDriver(t, e, a, []WorkRequest{{QP: 3, Dst: 2, DestQP: 5, Op: OpRead, Bytes: 8 * mtu, Posted: 1000}})
	attachDriver(t, e, b, []WorkRequest{{QP: 5, Dst: 1, DestQP: 3, Op: OpWrite, Bytes: 4 * mtu, Posted: 10 * rtlmodel.Microsecond}})
	require.NoError(t, e.Run(rtlmodel.Millisecond))
	require.Equal(t, 1, lost, "the feedback on the last responses lost")
	require.Len(t, *reads, 1)
	require.Len(t, *writes, 1, "the responder's write completes")
	require.Equal(t, StatusOK, (*writes)[0].Status)
	require.Greater(t, (*writes)[0].Placed, lastResp+cb.RTO, "the write waited for the responses' timer")
	require.Less(t, (*writes)[0].Placed, lastResp+cb.RTO+10*rtlmodel.Microsecond)
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
	reads, writes := requesterCompletions(a), requesterCompletions(b)
	const writeAt = 100 * rtlmodel.Microsecond
	attachDriver(t, e, a, []WorkRequest{
		{QP: 3, Dst: 2, DestQP: 5, Op: OpRead, Bytes: 4 * mtu, Posted: 1000},
		{QP: 3, Dst: 2, DestQP: 5, Op: OpRead, Bytes: 4 * mtu, Posted: 1000},
	})
	attachDriver(t, e, b, []WorkRequest{{QP: 5, Dst: 1, DestQP: 3, Op: OpWrite, Bytes: 2 * mtu, Posted: writeAt}})
	require.NoError(t, e.Run(writeAt-rtlmodel.Microsecond))
	require.True(t, dropped)
	require.Len(t, *reads, 2)
	require.Less(t, bLast, reissued, "B's responses all went before A was issued again")
	require.Equal(t, uint64(1), counter(t, e, "nicA/read_reissues"), "A alone issued again")
	require.Zero(t, b.qps[5].inflight, "every response counted in flight has left it")
	bcc.w = mtu
	require.NoError(t, e.Run(rtlmodel.Millisecond))
	require.Len(t, *writes, 1, "the responder's write completes")
	require.Less(t, (*writes)[0].Placed, writeAt+10*rtlmodel.Microsecond, "at once")
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
	done := requesterCompletions(a)
	var wrs []WorkRequest
	for i := 0; i < reads; i++ {
		wrs = append(wrs, WorkRequest{QP: 3, Dst: 2, DestQP: 5, Op: OpRead, Bytes: bytes, Posted: 1000})
	}
	attachDriver(t, e, a, wrs)
	require.NoError(t, e.Run(rtlmodel.Forever))
	require.Len(t, *done, reads)
	for _, c := range *done {
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
