package nic400g

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// A sender stops at the receiver's PSN window behind a hole: with every
// try of the first packet lost for its first 40 us, a sender at line rate
// would run hundreds of packets ahead of the hole; with a window of 64 it
// stops 64 past it, so nothing is dropped as out of the window, and the
// 200-packet write completes.
func TestSenderStaysWithinTheReceiversPSNWindow(t *testing.T) {
	ca, cb := DefaultConfig(1), DefaultConfig(2)
	ca.RecvWindow, cb.RecvWindow = 64, 64
	ca.RTO = 20 * rtlmodel.Microsecond
	lost := 0
	e, a, _, _ := trimmedBackToBack(t, ca, cb, func(d *packet.Desc, now rtlmodel.Time) wireAct {
		if d.Meta.PSN == 0 && now < 40*rtlmodel.Microsecond {
			lost++
			return wireDrop
		}
		return wirePass
	})
	var done []Completion
	a.OnComplete = func(c Completion) { done = append(done, c) }
	attachDriver(t, e, a, []WorkRequest{{QP: 3, Dst: 2, DestQP: 5, Bytes: 200 * 4096, Posted: 1000}})
	require.NoError(t, e.Run(rtlmodel.Millisecond))
	require.GreaterOrEqual(t, lost, 2)
	require.Len(t, done, 1)
	require.Equal(t, StatusOK, done[0].Status)
	require.Zero(t, counter(t, e, "nicB/rx_out_of_window"), "packets sent past the receiver's window")
}

// FirstHeld finds the first PSN held past the expected one, across the
// ring's words and the PSN space's wrap, and nothing when none is held.
func TestRecvWindowFirstHeld(t *testing.T) {
	w, err := NewRecvWindow(256, PSNMask-100)
	require.NoError(t, err)
	_, ok := w.FirstHeld()
	require.False(t, ok)
	for _, c := range []struct{ receive, want PSN }{
		{PSN(120), PSN(120)},         // past the wrap, in a later word
		{PSNMask - 30, PSNMask - 30}, // an earlier one
		{PSNMask - 99, PSNMask - 99}, // right after the expected PSN
	} {
		w.Receive(c.receive)
		got, ok := w.FirstHeld()
		require.True(t, ok)
		require.Equal(t, c.want, got)
	}
	w.Receive(PSNMask - 100) // the expected PSN: the run to PSNMask−99 is placed
	got, ok := w.FirstHeld()
	require.True(t, ok)
	require.Equal(t, PSNMask-30, got)
}
