package nic400g

import (
	"fmt"
	"testing"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/serdes"
	"github.com/stretchr/testify/require"
)

// driver posts work requests to a NIC: each at its time, through the
// host's doorbell path.
type driver struct {
	h    *rtlmodel.Handle
	out  *rtlmodel.Link[WorkRequest]
	host HostSide
	wrs  []WorkRequest // Posted = when the CPU writes the doorbell
	next int
}

func (d *driver) Eval(edge rtlmodel.Edge) rtlmodel.Wake {
	for d.next < len(d.wrs) && d.wrs[d.next].Posted <= edge.Time && d.out.CanSend() {
		wr := d.wrs[d.next]
		d.out.SendAt(wr, d.host.Doorbell(wr.Posted, wr.Inline))
		d.next++
	}
	if d.next < len(d.wrs) {
		if d.wrs[d.next].Posted > edge.Time {
			dom := d.h.Domain()
			return rtlmodel.Wake(dom.CycleAt(dom.FirstEdgeAtOrAfter(d.wrs[d.next].Posted)))
		}
		return edge.Next()
	}
	return rtlmodel.Never
}

// attachDriver gives a NIC a driver posting wrs.
func attachDriver(t testing.TB, e *rtlmodel.Engine, n *NIC, wrs []WorkRequest) *driver {
	dom, err := e.AddDomain(fmt.Sprintf("cpu%d", n.cfg.ID), 1000, 0)
	require.NoError(t, err)
	d := &driver{host: n.host, wrs: wrs}
	d.h, err = e.Add(dom, fmt.Sprintf("cpu%d/driver", n.cfg.ID), d)
	require.NoError(t, err)
	d.out, err = rtlmodel.NewLink[WorkRequest](fmt.Sprintf("cpu%d>nic", n.cfg.ID), d.h, n.Handle(),
		rtlmodel.LinkConfig{Latency: 1, Width: 64})
	require.NoError(t, err)
	n.ConnectDoorbells(d.out)
	return d
}

// twoNICs builds an engine with two NICs, nicA and nicB, sharing a
// descriptor pool, not yet wired.
func twoNICs(t testing.TB, ca, cb Config) (*rtlmodel.Engine, *NIC, *NIC) {
	e := rtlmodel.NewEngine(rtlmodel.Options{Seed: 1, WatchdogCycles: 10_000_000})
	pool := &packet.DescPool{}
	a, err := New(e, "nicA", ca, pool)
	require.NoError(t, err)
	b, err := New(e, "nicB", cb, pool)
	require.NoError(t, err)
	return e, a, b
}

// backToBack connects two NICs over one cable.
func backToBack(t testing.TB, ca, cb Config) (*rtlmodel.Engine, *NIC, *NIC) {
	e, a, b := twoNICs(t, ca, cb)
	ab, err := rtlmodel.NewLink[serdes.RxFrame[*packet.Desc]]("wire/a>b", a.Phy().Handle(), b.Handle(), rtlmodel.LinkConfig{Latency: 1, Width: 1})
	require.NoError(t, err)
	ba, err := rtlmodel.NewLink[serdes.RxFrame[*packet.Desc]]("wire/b>a", b.Phy().Handle(), a.Handle(), rtlmodel.LinkConfig{Latency: 1, Width: 1})
	require.NoError(t, err)
	require.NoError(t, a.ConnectWire(ab, ba))
	require.NoError(t, b.ConnectWire(ba, ab))
	return e, a, b
}

// sendOneMessage posts one RDMA WRITE of bytes from a's QP 3 to QP 5 of
// the NIC with ID 2, runs the engine for a millisecond and returns a's
// completions.
func sendOneMessage(t testing.TB, e *rtlmodel.Engine, a *NIC, bytes uint64) []Completion {
	t.Helper()
	var done []Completion
	a.OnComplete = func(c Completion) { done = append(done, c) }
	attachDriver(t, e, a, []WorkRequest{{QP: 3, Dst: 2, DestQP: 5, Bytes: bytes, Posted: 1000}})
	require.NoError(t, e.Run(rtlmodel.Millisecond))
	return done
}

// onFrames calls fn with every frame a wire link carries, and the link's
// name.
func onFrames(e *rtlmodel.Engine, fn func(link string, d *packet.Desc)) {
	e.Hooks().OnTransfer(func(ev *rtlmodel.TransferEvent) {
		if f, ok := ev.Value().(serdes.RxFrame[*packet.Desc]); ok {
			fn(ev.Link, f.Frame)
		}
	})
}
