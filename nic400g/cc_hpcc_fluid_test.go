package nic400g

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// ccFluidResult is what the fluid loops of the delay and INT algorithms
// report over their measuring window.
type ccFluidResult struct {
	avg      []float64 // mean delivered rate per flow, Gb/s
	jain     float64
	util     float64 // bytes through the bottleneck / capacity
	maxQueue float64 // bytes
	meanQ    float64 // bytes
	peakQ    float64 // bytes, over the whole run (joins included)
}

// ccJain is Jain's fairness index of xs.
func ccJain(xs []float64) float64 {
	var s, s2 float64
	for _, x := range xs {
		s += x
		s2 += x * x
	}
	if s2 == 0 {
		return 0
	}
	return s * s / (float64(len(xs)) * s2)
}

// ccFluidStep is the loop's time step.
const ccFluidStep = rtlmodel.Microsecond

// ccFluidRing holds one value per step for the last len(ring) steps.
type ccFluidRing []float64

func (r ccFluidRing) at(k int) float64 {
	if k < 0 {
		return 0
	}
	return r[k%len(r)]
}

// runHPCCFluid: n HPCC senders share one 400G bottleneck with a queue.
// Each sends at min(W/T, W/RTT), RTT = T + queue/capacity (window
// limited, paced at W/T); its bytes reach the queue half a base RTT later.
// The switch stamps an INT record (400G code, time, transmitted bytes,
// queue) every step; the sender sees the record of half a base RTT ago,
// and its ACKs acknowledge what it had sent one RTT ago. Flow i starts at
// i·stagger with the largest window.
func runHPCCFluid(t *testing.T, p *HPCCParams, n int, stagger, total, window rtlmodel.Time) ccFluidResult {
	t.Helper()
	const capBytes = 400e9 / 8 * 1e-6 // per step
	half := int(p.BaseRTT / 2 / ccFluidStep)
	steps := int(total / ccFluidStep)
	from := int((total - window) / ccFluidStep)
	hs := make([]*HPCC, n)
	sentHist := make([]ccFluidRing, n) // cumulative bytes sent, per step
	arrive := make(ccFluidRing, 64)    // bytes reaching the queue, per step
	ints := make([]packet.INT, 64)     // the switch's record, per step
	acked := make([]float64, n)
	for i := range hs {
		var err error
		hs[i], err = NewHPCC(p)
		require.NoError(t, err)
		sentHist[i] = make(ccFluidRing, 4096)
	}
	res := ccFluidResult{avg: make([]float64, n)}
	var q, tx, through float64
	for k := range steps {
		now := rtlmodel.Time(k) * ccFluidStep
		rtt := float64(p.BaseRTT)/1e6 + q/capBytes // in steps
		arrive[(k+half)%len(arrive)] = 0
		for i, h := range hs {
			if now < rtlmodel.Time(i)*stagger {
				continue
			}
			// ACK: what was sent one RTT ago, with the INT of half a base RTT ago
			if rec := ints[(k-half+len(ints))%len(ints)]; k >= half && rec.NHop == 1 {
				a := sentHist[i].at(k - int(math.Round(rtt)))
				h.OnAck(now, &AckEvent{AckedBytes: uint64(max(0, a-acked[i])), INT: &rec})
				acked[i] = max(acked[i], a)
			}
			w := float64(h.Window())
			rate := math.Min(float64(h.Rate())*1e3/8*1e-6, w/rtt) // bytes per step
			h.onSendPayload(uint32(rate))
			sentHist[i][k%len(sentHist[i])] = sentHist[i].at(k-1) + rate
			arrive[(k+half)%len(arrive)] += rate
			if k >= from {
				res.avg[i] += rate
			}
		}
		in := arrive[k%len(arrive)]
		out := math.Min(q+in, capBytes)
		q += in - out
		tx += out
		res.peakQ = math.Max(res.peakQ, q)
		if k >= from {
			through += out
			res.maxQueue = math.Max(res.maxQueue, q)
			res.meanQ += q
		}
		rec := &ints[k%len(ints)]
		rec.NHop = 1
		rec.Hops[0] = packet.INTHop{LineRate: 4, Time: uint32(uint64(now/rtlmodel.Nanosecond) & intTimeMask),
			Bytes: uint32(uint64(tx/128) & intBytesMask), QLen: uint32(min(q/80, 1<<17-1))}
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

// TestHPCCFluidConvergence: 4, 8 and 16 HPCC flows joining one 400G
// bottleneck share it fairly near η with a short queue, with the code
// default maxStage 5 and the artifact's run configuration maxStage 0
// (FACTS 2.2).
func TestHPCCFluidConvergence(t *testing.T) {
	for _, stage := range []uint32{5, 0} {
		p := DefaultHPCCParams(400e9, HTSimHPCCBaseRTT)
		p.MaxStage = stage
		for _, n := range []int{4, 8, 16} {
			r := runHPCCFluid(t, &p, n, 200*us, 30*rtlmodel.Millisecond, 10*rtlmodel.Millisecond)
			t.Logf("hpcc/maxStage %d/%d: Jain %.4f, utilisation %.3f, queue mean %.0f B max %.0f B (peak over the joins %.0f B), rates Gb/s %.1f",
				stage, n, r.jain, r.util, r.meanQ, r.maxQueue, r.peakQ, r.avg)
			assert.GreaterOrEqual(t, r.jain, 0.9, "n=%d", n)
			assert.GreaterOrEqual(t, r.util, 0.9, "n=%d", n)
			assert.Less(t, r.maxQueue, float64(p.BDP()), "n=%d: queue below one BDP once converged", n)
			assert.Less(t, r.peakQ, 2*float64(p.BDP()), "n=%d: a join at line rate queues at most its window", n)
		}
	}
}
