package nic400g

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// nsccFluid is what the NSCC fluid loop reports over its measuring window.
type nsccFluid struct {
	share    []float64 // bytes delivered per flow
	jain     float64
	util     float64
	maxQueue uint64
	windows  []uint64
}

// jainIndex is (Σx)²/(n·Σx²).
func jainIndex(x []float64) float64 {
	var s, s2 float64
	for _, v := range x {
		s += v
		s2 += v * v
	}
	if s2 == 0 {
		return 0
	}
	return s * s / (float64(len(x)) * s2)
}

// runNSCCFluid drives n NSCC senders through one 400G bottleneck in steps
// of 500 ns. Each step a flow puts min(line rate·dt, window − in flight)
// bytes into its share of a FIFO; the bottleneck serves line rate·dt,
// split over the flows in proportion to their queued bytes; what it
// serves is ACKed (one coalesced ACK per flow per step) one base RTT
// later with RTT = base + queue/rate and the ECN echo set when the queue
// exceeded ecnK. Flow i starts at i·stagger; the window is the last
// measure of the run.
func runNSCCFluid(t *testing.T, p *NSCCParams, n int, stagger, total, measure rtlmodel.Time, ecnK uint64) nsccFluid {
	t.Helper()
	const dt = 500 * rtlmodel.Nanosecond
	line := wideMulDiv(p.LineRate, uint64(dt), 8e12) // bytes per step
	lag := int(p.BaseRTT / dt)
	type ackSlot struct {
		bytes []uint64
		rtt   rtlmodel.Time
		ece   bool
	}
	ring := make([]ackSlot, lag)
	for i := range ring {
		ring[i].bytes = make([]uint64, n)
	}
	cc := make([]NSCC, n)
	for i := range cc {
		cc[i].Init(p)
	}
	q := make([]uint64, n)
	var Q uint64
	res := nsccFluid{share: make([]float64, n), windows: make([]uint64, n)}
	var served, slots uint64
	ev := &AckEvent{}
	for k, now := 0, rtlmodel.Time(0); now < total; k, now = k+1, now+dt {
		slot := &ring[k%lag]
		for i := range cc {
			if b := slot.bytes[i]; b != 0 {
				*ev = AckEvent{AckedBytes: b, RTT: slot.rtt, ECE: slot.ece}
				cc[i].OnAck(now, ev)
				slot.bytes[i] = 0
			}
		}
		for i := range cc {
			if now < rtlmodel.Time(i)*stagger {
				continue
			}
			w, f := cc[i].Window(), cc[i].InFlight()
			if w > f {
				s := min(line, w-f)
				cc[i].OnSend(now, uint32(s))
				q[i] += s
				Q += s
			}
		}
		d := min(Q, line)
		slot.rtt = p.BaseRTT + rtlmodel.Time(wideMulDiv(Q, 8e12, p.LineRate))
		slot.ece = Q > ecnK
		measuring := now >= total-measure
		if measuring {
			res.maxQueue = max(res.maxQueue, Q)
			slots++
		}
		if d != 0 {
			var left = d
			for i := range q {
				x := min(q[i], wideMulDiv(q[i], d, Q))
				slot.bytes[i] += x
				q[i] -= x
				left -= x
				if measuring {
					res.share[i] += float64(x)
				}
			}
			for i := 0; left != 0 && i < n; i++ { // rounding remainder
				x := min(q[i], left)
				slot.bytes[i] += x
				q[i] -= x
				left -= x
				if measuring {
					res.share[i] += float64(x)
				}
			}
			Q -= d
			if measuring {
				served += d
			}
		}
	}
	res.jain = jainIndex(res.share)
	res.util = float64(served) / float64(slots*line)
	for i := range cc {
		res.windows[i] = cc[i].Window()
	}
	return res
}

func TestNSCCFluidConverges(t *testing.T) {
	p := DefaultNSCCParams(400e9, 12*rtlmodel.Microsecond, true)
	require.NoError(t, p.Validate())
	ecnK := p.BDP() / 4 // 150 KB: marks start at a third of the target queue
	for _, n := range []int{2, 8, 16} {
		r := runNSCCFluid(t, &p, n, 100*rtlmodel.Microsecond, 10*rtlmodel.Millisecond, 4*rtlmodel.Millisecond, ecnK)
		t.Logf("%d flows: Jain %.4f, utilisation %.4f, max queue %d B, windows %v", n, r.jain, r.util, r.maxQueue, r.windows)
		assert.GreaterOrEqual(t, r.jain, 0.9, "%d flows", n)
		assert.GreaterOrEqual(t, r.util, 0.9, "%d flows", n)
		target := wideMulDiv(uint64(p.TargetQDelay), p.LineRate, 8e12)
		assert.LessOrEqual(t, r.maxQueue, target*3/2, "%d flows: queue bounded near the target delay", n)
	}
}
