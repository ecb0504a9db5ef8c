package nic400g

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// trimResponses returns a wire script that trims, once each, the
// responses of a read at the given offsets, as a switch does: the
// requester gets their headers.
func trimResponses(offsets ...uint64) (wireScript, *int) {
	trimmed := 0
	done := map[uint64]bool{}
	return func(f wireFrame, _ rtlmodel.Time) []wireFrame {
		m := f.Frame.Meta
		if m.Flags&(flagData|flagReadResp) == flagData|flagReadResp && !done[m.Offset] {
			for _, o := range offsets {
				if o == m.Offset {
					done[o] = true
					f.Frame.Trimmed = true
					trimmed++
				}
			}
		}
		return []wireFrame{f}
	}, &trimmed
}

// A requester that places READ responses out of order (Config.OOOReads)
// asks for a trimmed response alone: a READ request whose PSN is the
// trimmed response's and whose RETH names its offset and length. The
// responder serves it beside the job still serving the read, so each
// trimmed response is sent once more and nothing else is. Here three of
// 32 responses are trimmed (the 5th, 6th and 21st): 35 responses in all,
// each trim a loss to the responder's congestion control (LossTrimmed),
// and the read is never issued again for the rest.
//
// Issued again for the rest from the first trimmed response, as a
// requester taking responses in order does, the read had the responder
// send again every response from the 5th on that the requester held.
func TestTrimmedReadResponsesAreAskedForAlone(t *testing.T) {
	for _, ooo := range []bool{true, false} {
		ca, cb := DefaultConfig(1), DefaultConfig(2)
		ca.OOOReads = ooo
		mtu := uint64(ca.MTU)
		const packets = 32
		ba, trimmed := trimResponses(4*mtu, 5*mtu, 20*mtu)
		var asks []packet.RETH
		var askOffsets []uint64
		ab := func(f wireFrame, _ rtlmodel.Time) []wireFrame {
			if m := f.Frame.Meta; m.Flags&(flagReadReq|flagTrimNAK) == flagReadReq|flagTrimNAK {
				h := f.Frame.Header()
				var reth packet.RETH
				require.NoError(t, reth.Decode(h[len(h)-packet.RETHLen:]))
				asks = append(asks, reth)
				askOffsets = append(askOffsets, m.Offset)
			}
			return []wireFrame{f}
		}
		e, a, b := scriptedCable(t, ca, cb, ab, ba)
		bcc := logLosses(b, mtu)
		reads := requesterCompletions(a)
		attachDriver(t, e, a, []WorkRequest{{QP: 3, Dst: 2, DestQP: 5, Op: OpRead, Bytes: packets * mtu, Posted: 1000}})
		require.NoError(t, e.Run(rtlmodel.Millisecond))
		require.Equal(t, 3, *trimmed)
		require.Len(t, *reads, 1, "ooo %v", ooo)
		require.Equal(t, StatusOK, (*reads)[0].Status)
		require.Equal(t, packets*mtu, (*reads)[0].Bytes)
		responses := counter(t, e, "nicB/read_responses")
		if !ooo {
			require.Empty(t, asks)
			require.NotZero(t, counter(t, e, "nicA/read_reissues"))
			require.Greater(t, responses, uint64(packets+3), "the rest sent again")
			continue
		}
		require.Equal(t, uint64(packets+3), responses, "each trimmed response sent once more")
		require.Equal(t, uint64(3), counter(t, e, "nicB/retransmits"))
		require.Zero(t, counter(t, e, "nicA/read_reissues"))
		require.Zero(t, counter(t, e, "nicA/timeouts"))
		require.Zero(t, counter(t, e, "nicA/rx_duplicate"))
		require.Equal(t, uint64(len(asks)), counter(t, e, "nicA/read_range_requests"))
		require.Equal(t, uint64(len(asks)), counter(t, e, "nicB/rx_read_range_requests"))
		var asked uint64
		for i, r := range asks {
			require.Equal(t, askOffsets[i], r.VA, "the RETH names the first trimmed response's offset")
			require.Contains(t, []uint64{4 * mtu, 5 * mtu, 20 * mtu}, r.VA)
			asked += uint64(r.DMALen)
		}
		require.Equal(t, 3*mtu, asked, "the requests ask for the trimmed responses' bytes, no more")
		require.Equal(t, []LossKind{LossTrimmed, LossTrimmed, LossTrimmed}, (*bcc).losses)
	}
}

// Each stack carries a range request's length where the responder reads
// it: the RETH's DMA length over RoCEv2 (IPv4, IPv6) and native IB, the
// SES request length over UET (askedEnd). A read of 64 responses whose
// 3rd and 4th are trimmed has its requests for them carry their 8 KB and
// exactly those two sent again on each.
func TestTrimmedReadResponsesAreAskedForOnEveryStack(t *testing.T) {
	for _, stack := range []HeaderStack{RoCEv2IPv4, RoCEv2IPv6, LeanNative, UET} {
		t.Run(stack.String(), func(t *testing.T) {
			ca, cb := DefaultConfig(1), DefaultConfig(2)
			ca.OOOReads = true
			ca.Stack, cb.Stack = stack, stack
			mtu := uint64(ca.MTU)
			const packets = 64
			ba, trimmed := trimResponses(2*mtu, 3*mtu)
			var asked uint64 // the lengths the range requests' headers carry
			ab := func(f wireFrame, _ rtlmodel.Time) []wireFrame {
				if f.Frame.Meta.Flags&(flagReadReq|flagTrimNAK) == flagReadReq|flagTrimNAK {
					h := f.Frame.Header()
					if stack == UET {
						var ses packet.SESStandard
						require.NoError(t, ses.Decode(h[len(h)-packet.SESStandardLen:]))
						asked += uint64(ses.RequestLength)
					} else {
						var reth packet.RETH
						require.NoError(t, reth.Decode(h[len(h)-packet.RETHLen:]))
						asked += uint64(reth.DMALen)
					}
				}
				return []wireFrame{f}
			}
			e, a, _ := scriptedCable(t, ca, cb, ab, ba)
			reads := requesterCompletions(a)
			attachDriver(t, e, a, []WorkRequest{{QP: 3, Dst: 2, DestQP: 5, Op: OpRead, Bytes: packets * mtu, Posted: 1000}})
			require.NoError(t, e.Run(rtlmodel.Millisecond))
			require.Equal(t, 2, *trimmed)
			require.Equal(t, 2*mtu, asked)
			require.Len(t, *reads, 1)
			require.Equal(t, StatusOK, (*reads)[0].Status)
			require.Equal(t, uint64(packets+2), counter(t, e, "nicB/read_responses"))
			require.Zero(t, counter(t, e, "nicA/read_reissues"))
			require.Zero(t, counter(t, e, "nicA/rx_duplicate"))
		})
	}
}
