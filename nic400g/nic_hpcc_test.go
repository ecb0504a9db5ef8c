package nic400g

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// An HPCC sender numbers what it sends as its ACKs number what they
// acknowledge, in payload bytes (the reference sender's snd_nxt and ACK
// sequence, FACTS 2.2 S [R14]): once the NIC has every byte of two
// writes acknowledged, the two sequences meet. Counted in frame bytes the
// send sequence would run ahead by the headers and INT of every packet,
// and each once-per-RTT reference update would wait that much longer.
func TestHPCCSendSequenceCountsPayload(t *testing.T) {
	ca, cb := DefaultConfig(1), DefaultConfig(2)
	ca.CC, cb.CC = "hpcc", "hpcc"
	e, a, _ := backToBack(t, ca, cb)
	var h *HPCC
	a.OnComplete = func(Completion) { h, _ = a.qps[3].cc.(*HPCC) } // before the idle QP is released
	const first, second = 1 << 20, 10_000
	attachDriver(t, e, a, []WorkRequest{
		{QP: 3, Dst: 2, DestQP: 5, Bytes: first, Posted: 1000},
		{QP: 3, Dst: 2, DestQP: 5, Bytes: second, Posted: 2000},
	})
	require.NoError(t, e.Run(rtlmodel.Forever))
	require.NotNil(t, h)
	require.Equal(t, uint64(first+second), h.acked, "every payload byte acknowledged")
	require.Equal(t, h.acked, h.sent, "send sequence in the ACKs' units")
}
