package nic400g

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/serdes"
	"github.com/stretchr/testify/require"
)

// roceBTH decodes the BTH of a RoCEv2/IPv4 frame from its header bytes.
func roceBTH(t testing.TB, d *packet.Desc) packet.BTH {
	var b packet.BTH
	require.NoError(t, b.Decode(d.Hdr[14+20+8:d.HdrLen]))
	return b
}

// opcodesOn records the BTH opcodes of the data frames on link, in order.
func opcodesOn(t testing.TB, e *rtlmodel.Engine, link string, mask uint16) *[]packet.OpCode {
	var ops []packet.OpCode
	e.Hooks().OnTransfer(func(ev *rtlmodel.TransferEvent) {
		if ev.Link != link {
			return
		}
		if f, ok := ev.Value().(serdes.RxFrame[*packet.Desc]); ok && f.Frame.Meta.Flags&mask != 0 {
			ops = append(ops, roceBTH(t, f.Frame).OpCode)
		}
	})
	return &ops
}

// RC SEND back to back: SEND_FIRST/MIDDLE/LAST and SEND_ONLY without a
// RETH, a receive CQE at the responder and a send CQE at the requester.
func TestSendBackToBack(t *testing.T) {
	ca, cb := DefaultConfig(1), DefaultConfig(2)
	e, a, b := backToBack(t, ca, cb)
	var rx, tx []Completion
	b.OnComplete = func(c Completion) { rx = append(rx, c) }
	a.OnComplete = func(c Completion) { tx = append(tx, c) }
	ops := opcodesOn(t, e, "wire/a>b", flagData)
	attachDriver(t, e, a, []WorkRequest{
		{QP: 3, Dst: 2, DestQP: 5, Op: OpSend, Bytes: 3*4096 + 100, Posted: 1000},
		{QP: 3, Dst: 2, DestQP: 5, Op: OpSend, Bytes: 64, Inline: true, Posted: 2000},
	})
	require.NoError(t, e.Run(rtlmodel.Forever))
	require.Len(t, rx, 2)
	require.Len(t, tx, 2)
	for i, want := range []uint64{3*4096 + 100, 64} {
		require.True(t, rx[i].Responder)
		require.Equal(t, OpSend, rx[i].Op)
		require.Equal(t, want, rx[i].Bytes)
		require.Equal(t, OpSend, tx[i].Op)
		require.Equal(t, want, tx[i].Bytes)
	}
	require.Equal(t, []packet.OpCode{packet.RCSendFirst, packet.RCSendMiddle, packet.RCSendMiddle, packet.RCSendLast,
		packet.RCSendOnly}, *ops)
	for _, op := range *ops {
		require.False(t, op.HasRETH(), "a SEND carries no address")
	}
	require.Zero(t, a.pool.Live(), "every descriptor returned")
}
