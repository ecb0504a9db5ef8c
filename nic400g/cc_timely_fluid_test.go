package nic400g

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// ccFluidBaseRTT is the propagation round trip of the delay-based fluid
// loops: 10 µs, the upper end of FACTS 7's 5–10 µs (E).
const ccFluidBaseRTT = 10 * rtlmodel.Microsecond

// runDelayFluid: n senders, each with the congestion control mk
// returns, share one 400G bottleneck with a FIFO queue. A sender's bytes
// reach the queue half a base RTT after it sends them; the step's bytes
// leave the queue once the queue ahead of them has drained at line rate,
// and their ACK reaches the sender half a base RTT after that, carrying
// the RTT those bytes saw (base + queueing delay) and acknowledging every
// byte the sender had sent up to them. A sender sends, per step, at most
// line rate, at most its Rate() when that is set, and at most what its
// Window() allows beyond the acknowledged bytes when that is set. Flow i
// starts at i·stagger.
func runDelayFluid(t *testing.T, mk func() CongestionControl, n int, stagger, total, window rtlmodel.Time) ccFluidResult {
	t.Helper()
	const capBytes = 400e9 / 8 * 1e-6 // per step
	half := int(ccFluidBaseRTT / 2 / ccFluidStep)
	steps := int(total / ccFluidStep)
	from := int((total - window) / ccFluidStep)
	cs := make([]CongestionControl, n)
	sent := make([][]float64, n) // cumulative bytes sent by the end of each step
	acked := make([]float64, n)
	for i := range cs {
		cs[i] = mk()
		sent[i] = make([]float64, steps)
	}
	type ackAt struct {
		s   int     // send step
		at  float64 // arrival at the sender, in steps
		rtt rtlmodel.Time
	}
	var pending []ackAt
	arrive := make([]float64, steps+half+1)
	res := ccFluidResult{avg: make([]float64, n)}
	var q, through float64
	for k := range steps {
		now := rtlmodel.Time(k) * ccFluidStep
		last := -1
		var rtt rtlmodel.Time
		for len(pending) > 0 && pending[0].at <= float64(k) {
			last, rtt = pending[0].s, pending[0].rtt
			pending = pending[1:]
		}
		for i, c := range cs {
			prev := 0.0
			if k > 0 {
				prev = sent[i][k-1]
			}
			sent[i][k] = prev
			if now < rtlmodel.Time(i)*stagger {
				continue
			}
			if last >= 0 {
				a := sent[i][last]
				c.OnAck(now, &AckEvent{AckedBytes: uint64(max(0, a-acked[i])), RTT: rtt})
				acked[i] = max(acked[i], a)
			}
			c.Advance(now)
			b := capBytes
			if r := c.Rate(); r != 0 {
				b = math.Min(b, float64(r)*1e3/8*1e-6)
			}
			if w := c.Window(); w != 0 {
				b = math.Min(b, math.Max(0, acked[i]+float64(w)-prev))
			}
			if ps, ok := c.(payloadSequencer); ok {
				ps.onSendPayload(uint32(b))
			} else {
				c.OnSend(now, uint32(b))
			}
			sent[i][k] = prev + b
			arrive[k+half] += b
			if k >= from {
				res.avg[i] += b
			}
		}
		in := arrive[k]
		out := math.Min(q+in, capBytes)
		q += in - out
		if k >= half {
			delay := q / capBytes // steps
			pending = append(pending, ackAt{s: k - half, at: float64(k+half) + delay,
				rtt: ccFluidBaseRTT + rtlmodel.Time(delay*float64(ccFluidStep))})
		}
		res.peakQ = math.Max(res.peakQ, q)
		if k >= from {
			through += out
			res.maxQueue = math.Max(res.maxQueue, q)
			res.meanQ += q
		}
	}
	w := float64(steps - from)
	for i := range res.avg {
		res.avg[i] = res.avg[i] / w * 8e6 / 1e9
	}
	res.jain = ccJain(res.avg)
	res.util = through / (w * capBytes)
	res.meanQ /= w
	return res
}

// TestTimelyFluid: 4, 8 and 16 TIMELY flows joining one 400G bottleneck
// 1 ms apart share it fairly with the queue below T_high·capacity. The
// utilisation bound is 0.8, not 0.9: with one update per RTT, β = 0.8
// and δ = 400 Mb/s, the gradient rule overshoots a rising RTT and the
// loop settles into a cycle in which the queue empties for part of each
// period (0.82–0.89 here; starting all flows at once gives 0.82–0.93).
// TIMELY has no utilisation target; holding one is HPCC's and Swift's
// design, not TIMELY's (FACTS 2.3 gives only the increase and decrease
// laws).
func TestTimelyFluid(t *testing.T) {
	p := DefaultTimelyParams(400e9)
	mk := func() CongestionControl {
		cc, err := NewTimely(&p)
		require.NoError(t, err)
		return cc
	}
	for _, n := range []int{4, 8, 16} {
		r := runDelayFluid(t, mk, n, rtlmodel.Millisecond, 60*rtlmodel.Millisecond, 20*rtlmodel.Millisecond)
		t.Logf("timely/%d: Jain %.4f, utilisation %.3f, queue mean %.0f B max %.0f B (peak over the joins %.0f B), rates Gb/s %.1f",
			n, r.jain, r.util, r.meanQ, r.maxQueue, r.peakQ, r.avg)
		assert.GreaterOrEqual(t, r.jain, 0.9, "n=%d", n)
		assert.GreaterOrEqual(t, r.util, 0.8, "n=%d", n)
		assert.Less(t, r.maxQueue, 500e-6*50e9, "n=%d: queue below T_high·capacity", n)
	}
}
