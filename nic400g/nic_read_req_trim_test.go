package nic400g

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// trimFrame cuts f to 64 bytes as a trimming switch does.
func trimFrame(f *wireFrame) {
	d := f.Frame
	d.Trimmed = true
	d.FrameBytes = 64
	if d.HdrLen > 64 {
		clear(d.Hdr[64:d.HdrLen])
		d.HdrLen = 64
	}
}

// A READ request trimmed on the way has lost the RETH that says what it
// asks for: the responder NACKs its PSN and the requester sends it again,
// a request for the rest of the read as it was, and a request for a
// trimmed response as the same range. Here the read's first request is
// trimmed in one case, and in the other the request for its fifth
// response, itself trimmed; the read completes either way, with every
// response sent once more than it was trimmed and none received twice.
//
// Before, a trimmed request was served as whole, from what the model
// carries beside the header and a responder does not have; the request
// for the fifth response, its DMA length cut to zeros, was taken for one
// for the rest of the read: 26 responses, 9 of them received twice.
func TestTrimmedReadRequestIsSentAgain(t *testing.T) {
	for _, c := range []struct {
		name                string
		trimFirst           bool
		responses, ranges   uint64
		reissues, trimmedRq int
	}{
		{"first request", true, 16, 0, 1, 1},
		{"range request", false, 17, 2, 0, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			ca, cb := DefaultConfig(1), DefaultConfig(2)
			ca.OOOReads = true
			mtu := uint64(ca.MTU)
			const packets = 16
			var ba wireScript
			if !c.trimFirst {
				ba, _ = trimResponses(4 * mtu)
			}
			trimmedRq := 0
			ab := func(f wireFrame, _ rtlmodel.Time) []wireFrame {
				m := f.Frame.Meta
				if m.Flags&flagReadReq != 0 && trimmedRq == 0 && (c.trimFirst || m.Flags&flagTrimNAK != 0) {
					trimmedRq++
					trimFrame(&f)
				}
				return []wireFrame{f}
			}
			e, a, _ := scriptedCable(t, ca, cb, ab, ba)
			reads := requesterCompletions(a)
			attachDriver(t, e, a, []WorkRequest{{QP: 3, Dst: 2, DestQP: 5, Op: OpRead, Bytes: packets * mtu, Posted: 1000}})
			require.NoError(t, e.Run(rtlmodel.Millisecond))
			require.Equal(t, c.trimmedRq, trimmedRq)
			require.Len(t, *reads, 1)
			require.Equal(t, StatusOK, (*reads)[0].Status)
			require.Equal(t, uint64(1), counter(t, e, "nicB/rx_trimmed"))
			require.Equal(t, uint64(1), counter(t, e, "nicA/nak_received"))
			require.Equal(t, c.responses, counter(t, e, "nicB/read_responses"))
			require.Equal(t, c.ranges, counter(t, e, "nicA/read_range_requests"))
			require.Equal(t, uint64(c.reissues), counter(t, e, "nicA/read_reissues"))
			require.Zero(t, counter(t, e, "nicA/rx_duplicate"))
			require.Zero(t, counter(t, e, "nicA/timeouts"))
		})
	}
}
