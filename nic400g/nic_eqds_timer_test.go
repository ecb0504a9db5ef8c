package nic400g

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/serdes"
	"github.com/stretchr/testify/require"
)

// wireAct is what a trimmer does with a data frame.
type wireAct int

const (
	wirePass wireAct = iota // forward it
	wireTrim                // cut it to its 64 B header
	wireDrop                // lose it
	wireSwap                // let the next frame pass it
)

// trimmer stands on the wire from one NIC to another and trims or drops
// the data frames act picks, as a switch whose queue is full does (a
// trimmed header keeps its transport fields), or holds one back until the
// next frame has passed it, as a longer path does.
type trimmer struct {
	in, out      *rtlmodel.Link[serdes.RxFrame[*packet.Desc]]
	act          func(d *packet.Desc, now rtlmodel.Time) wireAct
	trims, drops int
	swapped      []serdes.RxFrame[*packet.Desc] // held back, oldest first
	overtaken    int                            // how many of them a later frame has passed
}

func (m *trimmer) Eval(edge rtlmodel.Edge) rtlmodel.Wake {
	for m.overtaken > 0 && m.out.CanSend() {
		m.out.Send(m.swapped[0])
		m.swapped, m.overtaken = m.swapped[1:], m.overtaken-1
	}
	for m.out.CanSend() {
		f, ok := m.in.Recv()
		if !ok {
			break
		}
		if d := f.Frame; d.Meta.Flags&flagData != 0 && !d.Trimmed {
			switch m.act(d, edge.Time) {
			case wireTrim:
				d.Trimmed, d.FrameBytes = true, 64
				m.trims++
			case wireDrop:
				m.drops++
				continue
			case wireSwap:
				m.swapped = append(m.swapped, f)
				continue
			}
		}
		m.out.Send(f)
		m.overtaken = len(m.swapped)
	}
	if m.in.Pending() > 0 || m.overtaken > 0 {
		return edge.Next()
	}
	return rtlmodel.Never
}

// trimmedBackToBack connects two NICs over one cable with a trimmer on
// the way from a to b.
func trimmedBackToBack(t testing.TB, ca, cb Config, act func(d *packet.Desc, now rtlmodel.Time) wireAct) (*rtlmodel.Engine, *NIC, *NIC, *trimmer) {
	return trimmedCable(t, ca, cb, 1, act)
}

// trimmedCable is trimmedBackToBack with each of the cable's three hops
// (a to the trimmer, the trimmer to b, b to a) taking latency cycles of
// the clock that sends on it.
func trimmedCable(t testing.TB, ca, cb Config, latency uint64, act func(d *packet.Desc, now rtlmodel.Time) wireAct) (*rtlmodel.Engine, *NIC, *NIC, *trimmer) {
	e, a, b := twoNICs(t, ca, cb)
	dom, err := e.AddDomain("wire", 1000, 0)
	require.NoError(t, err)
	m := &trimmer{act: act}
	h, err := e.Add(dom, "wire/trimmer", m)
	require.NoError(t, err)
	cfg := rtlmodel.LinkConfig{Latency: latency, Width: 1}
	m.in, err = rtlmodel.NewLink[serdes.RxFrame[*packet.Desc]]("wire/a>trimmer", a.Phy().Handle(), h, cfg)
	require.NoError(t, err)
	m.out, err = rtlmodel.NewLink[serdes.RxFrame[*packet.Desc]]("wire/trimmer>b", h, b.Handle(), cfg)
	require.NoError(t, err)
	ba, err := rtlmodel.NewLink[serdes.RxFrame[*packet.Desc]]("wire/b>a", b.Phy().Handle(), a.Handle(), cfg)
	require.NoError(t, err)
	require.NoError(t, a.ConnectWire(m.in, ba))
	require.NoError(t, b.ConnectWire(ba, m.out))
	return e, a, b, m
}

// Under EQDS a trimmed packet's NACK tells the sender the receiver has its
// header and will pull for its payload: the packet leaves the flight and
// waits for that pull, and the retransmission timer no longer runs for it
// (htsim takes a NACKed packet out of the times its timer runs on, S
// [R19]). A packet trimmed at every try for ten RTOs, NACKed and pulled
// each time, therefore costs the QP no timeout: it does not fail with
// its retries run out, and the message completes once the trimming stops.
func TestEQDSTrimmedPacketWaitingForItsPullIsNotTimed(t *testing.T) {
	const rto = 10 * rtlmodel.Microsecond
	for _, recovery := range []Recovery{SelectiveRepeat, GoBackN} {
		ca, cb := DefaultConfig(1), DefaultConfig(2)
		ca.CC, cb.CC = "eqds", "eqds"
		ca.RTO, ca.RetryCount, ca.Recovery = rto, 2, recovery
		cb.Recovery = recovery
		e, a, b, m := trimmedBackToBack(t, ca, cb, func(_ *packet.Desc, now rtlmodel.Time) wireAct {
			if now < 10*rto {
				return wireTrim
			}
			return wirePass
		})
		var done []Completion
		a.OnComplete = func(c Completion) { done = append(done, c) }
		attachDriver(t, e, a, []WorkRequest{{QP: 3, Dst: 2, DestQP: 5, Bytes: 16 << 10, Posted: 1000}})
		require.NoError(t, e.Run(rtlmodel.Millisecond))
		require.Greater(t, m.trims, 4*(ca.RetryCount+1), "recovery %v: trimmed again and again", recovery)
		require.Equal(t, uint64(m.trims), counter(t, e, "nicB/rx_trimmed"), "recovery %v", recovery)
		require.Len(t, done, 1, "recovery %v", recovery)
		require.Equal(t, StatusOK, done[0].Status, "recovery %v", recovery)
		require.Greater(t, done[0].Placed, rtlmodel.Time(10*rto), "recovery %v", recovery)
		require.Zero(t, counter(t, e, "nicA/timeouts"), "recovery %v: every packet NACKed or ACKed in time", recovery)
		require.Zero(t, b.EQDSPacer().Pending(5), "recovery %v", recovery)
	}
}

// A packet resent against a pull after its trims is timed again: when the
// wire trims its first tries and then loses the next one outright, the
// retransmission timer, stopped while the packet waited for its pull,
// runs again from the resend, expires and recovers the loss.
func TestEQDSResentTrimmedPacketIsTimedAgain(t *testing.T) {
	const rto = 10 * rtlmodel.Microsecond
	for _, recovery := range []Recovery{SelectiveRepeat, GoBackN} {
		ca, cb := DefaultConfig(1), DefaultConfig(2)
		ca.CC, cb.CC = "eqds", "eqds"
		ca.RTO, ca.Recovery, cb.Recovery = rto, recovery, recovery
		tries := 0
		e, a, b, m := trimmedBackToBack(t, ca, cb, func(d *packet.Desc, _ rtlmodel.Time) wireAct {
			if d.Meta.PSN != 0 {
				return wirePass
			}
			tries++
			switch {
			case tries <= 3:
				return wireTrim
			case tries == 4:
				return wireDrop
			}
			return wirePass
		})
		var done []Completion
		a.OnComplete = func(c Completion) { done = append(done, c) }
		attachDriver(t, e, a, []WorkRequest{{QP: 3, Dst: 2, DestQP: 5, Bytes: 4096, Posted: 1000}})
		require.NoError(t, e.Run(rtlmodel.Millisecond))
		require.Equal(t, 3, m.trims, "recovery %v", recovery)
		require.Equal(t, 1, m.drops, "recovery %v", recovery)
		require.Len(t, done, 1, "recovery %v: the lost resend recovered", recovery)
		require.Equal(t, StatusOK, done[0].Status, "recovery %v", recovery)
		require.Equal(t, uint64(1), counter(t, e, "nicA/timeouts"), "recovery %v", recovery)
		require.Less(t, done[0].Placed, rtlmodel.Time(3*rto), "recovery %v: by the timer, not later", recovery)
		require.Zero(t, b.EQDSPacer().Pending(5), "recovery %v", recovery)
	}
}
