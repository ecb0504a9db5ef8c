package nic400g

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// fuzzWire returns a wire script that takes one byte of script per frame,
// cycling: low bits 0 drop the frame, 1 trim it (a READ request or
// response; anything else passes), 2 hold it back behind the next frame;
// other values pass it.
func fuzzWire(script []byte) wireScript {
	i := 0
	var held *wireFrame
	return func(f wireFrame, _ rtlmodel.Time) []wireFrame {
		b := script[i%len(script)] & 7
		i++
		m := f.Frame.Meta
		switch {
		case b == 0:
			return nil
		case b == 1 && (m.Flags&flagReadReq != 0 || m.Flags&(flagData|flagReadResp) == flagData|flagReadResp):
			trimFrame(&f)
		case b == 2 && held == nil:
			held = &f
			return nil
		}
		out := []wireFrame{f}
		if held != nil && held.Frame != f.Frame {
			out = append(out, *held)
			held = nil
		}
		return out
	}
}

// FuzzOutOfOrderReadRecovery drives both directions of a wire from the
// input: which frames are dropped, trimmed or reordered. Whatever it
// does, two reads on one QP placing responses out of order end within
// 10 ms without a panic, each either complete with every byte or failed
// with its retries exhausted (the QP's other work request flushed). A
// wire that drops or trims every response fails them at 81.48 us, after
// 311 responses, 152 of them asked for again as trimmed: there is no
// bound on the responses but the retries' time.
func FuzzOutOfOrderReadRecovery(f *testing.F) {
	f.Add([]byte{3, 3, 3, 1, 3, 3, 0, 3}, []byte{3, 3, 2, 3, 1, 3, 3, 3, 3, 3})
	f.Add([]byte{1}, []byte{1, 3})
	f.Add([]byte("2"), []byte("01")) // every response dropped or trimmed
	f.Add([]byte{3}, []byte{0, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3})
	f.Fuzz(func(t *testing.T, ab, ba []byte) {
		if len(ab) == 0 || len(ba) == 0 || len(ab) > 64 || len(ba) > 64 {
			t.Skip()
		}
		ca, cb := DefaultConfig(1), DefaultConfig(2)
		ca.OOOReads = true
		ca.RTO, cb.RTO = 10*rtlmodel.Microsecond, 10*rtlmodel.Microsecond
		mtu := uint64(ca.MTU)
		e, a, _ := scriptedCable(t, ca, cb, fuzzWire(ab), fuzzWire(ba))
		reads := requesterCompletions(a)
		bytes := []uint64{24 * mtu, 5*mtu + 7}
		attachDriver(t, e, a, []WorkRequest{
			{QP: 3, Dst: 2, DestQP: 5, Op: OpRead, Bytes: bytes[0], Posted: 1000},
			{QP: 3, Dst: 2, DestQP: 5, Op: OpRead, Bytes: bytes[1], Posted: 1000},
		})
		require.NoError(t, e.Run(10*rtlmodel.Millisecond))
		require.Len(t, *reads, len(bytes))
		for i, c := range *reads {
			switch c.Status {
			case StatusOK:
				require.Equal(t, bytes[i], c.Bytes)
			case StatusRetryExceeded, StatusFlushed:
			default:
				t.Fatalf("read %d: status %v", i, c.Status)
			}
		}
	})
}
