package nic400g

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// One QP writes 1 GiB between two NICs back to back: the goodput the
// model delivers is the stack's analytical wire efficiency (FACTS 1.4).
func TestBackToBackGoodputMatchesWireEfficiency(t *testing.T) {
	const bytes = 1 << 30
	cases := []struct {
		stack HeaderStack
		model packet.Stack
	}{
		{LeanNative, packet.StackNativeIB},
		{RoCEv2IPv4, packet.StackRoCEv2IPv4},
		{RoCEv2IPv6, packet.StackRoCEv2IPv6},
		{UET, packet.StackUETStandard},
	}
	for _, c := range cases {
		ca, cb := DefaultConfig(1), DefaultConfig(2)
		ca.Stack, cb.Stack = c.stack, c.stack
		ca.CC, cb.CC = "none", "none"
		e, a, b := backToBack(t, ca, cb)
		var done Completion
		b.OnComplete = func(c Completion) { done = c }
		var firstOut rtlmodel.Time
		e.Hooks().OnTransfer(func(ev *rtlmodel.TransferEvent) {
			if firstOut == 0 && ev.Link == "nicA/tx" {
				firstOut = ev.Time
			}
		})
		attachDriver(t, e, a, []WorkRequest{{QP: 3, Dst: 2, DestQP: 5, Bytes: bytes, Posted: 1000}})
		require.NoError(t, e.Run(rtlmodel.Forever))
		require.Equal(t, uint64(bytes), done.Bytes, c.stack.String())
		span := done.Visible - firstOut
		got := float64(bytes) * 8 / (float64(span) / 1e12) / 1e9
		_, want := c.model.Goodput(400_000_000_000, 4096)
		t.Logf("%-12s 1 GiB in %v: goodput %.3f Gb/s, analytical %.3f Gb/s (%+.4f%%)", c.stack, span, got, want/1e9, 100*(got-want/1e9)/(want/1e9))
		require.InEpsilon(t, want/1e9, got, 0.001, c.stack.String())
	}
}
