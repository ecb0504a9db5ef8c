package nic400g

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// An EQDS read back to back: the responder sends its speculative window,
// then only against the requester's pulls, as a writer does (TestEQDSBack
// ToBack); the read completes near line rate, the requester's pacer asked
// for exactly what was not sent unsolicited and granted all of it, and
// every response the responder sent was paid for.
//
// Before, the responses went unpaced: the requester pulled for nothing and
// the responder sent the whole read at once.
func TestEQDSReadRespondsAgainstPulls(t *testing.T) {
	const bytes = 64 << 20
	ca, cb := DefaultConfig(1), DefaultConfig(2)
	ca.CC, cb.CC = "eqds", "eqds"
	e, a, b := backToBack(t, ca, cb)
	reads, cnt := readDoneWithResponder(a, b, 5)
	attachDriver(t, e, a, []WorkRequest{{QP: 3, Dst: 2, DestQP: 5, Op: OpRead, Bytes: bytes, Posted: 1000}})
	require.NoError(t, e.Run(rtlmodel.Forever))
	require.Len(t, *reads, 1)
	done := (*reads)[0]
	require.Equal(t, StatusOK, done.Status)
	gbps := float64(bytes) * 8 / (float64(done.Visible-done.Posted) / 1e12) / 1e9
	req, granted, pulls := a.EQDSPacer().Totals()
	t.Logf("EQDS 64 MiB read back to back: %.2f Gb/s; %d pulls granting %d of %d bytes asked; %d B charged; responder sent %d B, paid %d B",
		gbps, pulls, granted, req, a.EQDSPacer().Charged(), cnt.Sent, cnt.Spent)
	_, want := packet.StackRoCEv2IPv4.Goodput(400_000_000_000, 4096)
	require.Greater(t, gbps, 0.97*want/1e9)
	require.Positive(t, pulls)
	require.Equal(t, req, granted, "every request granted")
	require.Equal(t, uint64(bytes)-a.EQDSPacer().Charged(), req, "asked for what was not sent unsolicited")
	require.Equal(t, pulls, b.st.pullRecv.Value())
	require.Equal(t, uint64(bytes), cnt.Sent, "each response sent once")
	require.Equal(t, cnt.Sent, cnt.Spent, "each paid for")
	require.Zero(t, a.pool.Live())
}

// A lost credit request: the wire loses the read's first response, which
// asks for everything the speculative window does not cover. The
// requester, taking responses in order, issues the read again from it,
// and the response sent again carries the read's total again, grown by
// what is sent again and the allowance given up; the requester asks its
// pacer for the total once, and the read of 256 packets is placed 26.42
// us after its doorbell, with one request issued again, no timeout and no
// pull timer run out.
//
// Carried only by the first copy, the request was lost with it, and the
// responder, owed credit nobody would grant, stopped after its
// speculative window.
func TestEQDSReadRequestLostWithItsResponseIsCarriedAgain(t *testing.T) {
	ca, cb := DefaultConfig(1), DefaultConfig(2)
	ca.CC, cb.CC = "eqds", "eqds"
	mtu := uint64(ca.MTU)
	const packets = 256
	var credits []uint32
	lost := false
	ba := func(f wireFrame, _ rtlmodel.Time) []wireFrame {
		m := f.Frame.Meta
		if m.Flags&(flagData|flagReadResp) == flagData|flagReadResp && m.Offset == 0 {
			credits = append(credits, m.Credit)
			if !lost {
				lost = true
				return nil
			}
		}
		return []wireFrame{f}
	}
	keep := func(f wireFrame, _ rtlmodel.Time) []wireFrame { return []wireFrame{f} }
	e, a, b := scriptedCable(t, ca, cb, keep, ba)
	reads, cnt := readDoneWithResponder(a, b, 5)
	attachDriver(t, e, a, []WorkRequest{{QP: 3, Dst: 2, DestQP: 5, Op: OpRead, Bytes: packets * mtu, Posted: 1000}})
	require.NoError(t, e.Run(rtlmodel.Millisecond))
	require.Len(t, *reads, 1)
	done := (*reads)[0]
	require.Equal(t, StatusOK, done.Status)
	req, granted, _ := a.EQDSPacer().Totals()
	t.Logf("first response's requests %v; asked %d, granted %d; presumed %d; placed at %v", credits, req, granted, cnt.Presumed, done.Placed-done.Posted)
	require.Len(t, credits, 2, "the first response, lost, and the one sent again")
	require.Greater(t, credits[1], credits[0], "the total again, with what is sent again")
	require.Equal(t, uint64(credits[1]), req, "taken once")
	require.Equal(t, req, granted)
	require.Equal(t, uint64(1), counter(t, e, "nicA/read_reissues"))
	require.Zero(t, counter(t, e, "nicA/timeouts"))
	require.Zero(t, cnt.Presumed, "no pull timer ran out")
	require.Less(t, done.Placed-done.Posted, 30*rtlmodel.Microsecond)
}

// readDoneWithResponder records a's completions of reads it requested and,
// at each, the EQDS counts of b's QP qp serving it (released once idle).
func readDoneWithResponder(a, b *NIC, qp uint32) (*[]Completion, *EQDSSenderCounts) {
	var done []Completion
	var cnt EQDSSenderCounts
	a.OnComplete = func(c Completion) {
		if !c.Responder {
			done = append(done, c)
			cnt = b.qps[qp].eq.Counts()
		}
	}
	return &done, &cnt
}
