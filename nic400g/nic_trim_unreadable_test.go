package nic400g

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// A trimmed packet whose header was cut before its PSN cannot be NACKed:
// nothing left in it says which packet it was. Trimmed to 64 bytes as a
// switch does by default, the 5th packet of a 16-packet WRITE keeps
// Ethernet, IPv4, UDP and the BTH (54 bytes) over IPv4, and its receiver
// NACKs it; over IPv6 the BTH ends at byte 74, so the receiver drops it
// (rx_trim_unreadable) and the write still completes, the packet found
// missing some other way.
func TestTrimmedHeaderCutBeforeItsPSNIsDropped(t *testing.T) {
	for _, c := range []struct {
		stack      HeaderStack
		unreadable uint64
	}{{RoCEv2IPv4, 0}, {RoCEv2IPv6, 1}} {
		ca, cb := DefaultConfig(1), DefaultConfig(2)
		ca.Stack, cb.Stack = c.stack, c.stack
		mtu := uint64(ca.MTU)
		trimmed := false
		ab := func(f wireFrame, _ rtlmodel.Time) []wireFrame {
			if d := f.Frame; d.Meta.Flags&flagData != 0 && d.Meta.PSN == 4 && !trimmed {
				trimmed = true
				// as switchasic's traffic manager trims: 64 bytes kept, the
				// header bytes past them cleared
				d.Trimmed, d.FrameBytes = true, 64
				if int(d.HdrLen) > 64 {
					clear(d.Hdr[64:d.HdrLen])
					d.HdrLen = 64
				}
			}
			return []wireFrame{f}
		}
		e, a, _ := scriptedCable(t, ca, cb, ab, nil)
		done := requesterCompletions(a)
		attachDriver(t, e, a, []WorkRequest{{QP: 3, Dst: 2, DestQP: 5, Op: OpWrite, Bytes: 16 * mtu, Posted: 1000}})
		require.NoError(t, e.Run(10*rtlmodel.Millisecond))
		require.True(t, trimmed)
		require.Len(t, *done, 1, "%v", c.stack)
		require.Equal(t, StatusOK, (*done)[0].Status)
		require.Equal(t, c.unreadable, counter(t, e, "nicB/rx_trim_unreadable"), "%v", c.stack)
		require.Equal(t, 1-c.unreadable, counter(t, e, "nicA/trim_nack_received"), "%v", c.stack)
	}
}
