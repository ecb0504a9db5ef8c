package nic400g

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// fluidResult is what the fluid loop reports.
type fluidResult struct {
	avg       []float64 // mean rate of each flow over the measuring window, Gb/s
	jain      float64
	util      float64 // mean of Σ rates / capacity over the window
	maxQueue  float64 // bytes, over the window
	cnps      uint64
	finalRate []Kbps
}

// runFluid drives n reaction points through one bottleneck of the line
// rate in steps of dt. The queue grows by (Σ rate − capacity)·dt; each
// flow's packets (4096 B) are CE-marked with probability p(q) rising
// linearly from 0 at kmin to pmax at kmax and 1 above kmax (FACTS 2.1 CP,
// S [R9][R67]); the notification point sends at most one CNP per flow per
// npInterval, delivered to the reaction point feedback later. Flow i starts at
// line rate at i·stagger. Rates are averaged over the last window.
func runFluid(t *testing.T, p *DCQCNParams, npInterval rtlmodel.Time, n int, stagger, total, window rtlmodel.Time) fluidResult {
	t.Helper()
	const (
		dt       = rtlmodel.Microsecond
		feedback = 4 * rtlmodel.Microsecond
		mtu      = 4096.0
	)
	// HPCC artifact ECN map scaled to 400G: Kmin 1.6 MB, Kmax 6.4 MB,
	// Pmax 0.2 (S [R13]).
	const kmin, kmax, pmax = 1.6e6, 6.4e6, 0.2
	rng := rtlmodel.NewRNG(1, "dcqcn/fluid")
	np, err := NewNotificationPoint(npInterval, n)
	require.NoError(t, err)
	rps := make([]ReactionPoint, n)
	for i := range rps {
		rps[i].Init(p)
	}
	pending := make([]rtlmodel.Time, n) // CNP in flight to flow i, Forever if none
	for i := range pending {
		pending[i] = rtlmodel.Forever
	}
	capBps := float64(p.LineRate.BitsPerSecond())
	var q float64
	res := fluidResult{avg: make([]float64, n)}
	var utilSum float64
	var steps int
	for now := rtlmodel.Time(0); now < total; now += dt {
		var sum float64
		prob := 0.0
		switch {
		case q > kmax:
			prob = 1
		case q > kmin:
			prob = pmax * (q - kmin) / (kmax - kmin)
		}
		for i := range rps {
			if now < rtlmodel.Time(i)*stagger {
				continue
			}
			rp := &rps[i]
			if pending[i] <= now {
				rp.OnCNP(pending[i])
				pending[i] = rtlmodel.Forever
			}
			rp.Advance(now)
			rate := float64(rp.Rate().BitsPerSecond())
			bytes := rate * float64(dt) / 1e12 / 8
			rp.OnBytesSent(now, uint64(bytes))
			sum += rate
			if prob > 0 {
				pkts := bytes / mtu
				if rng.Float64() < 1-math.Pow(1-prob, pkts) && np.OnCE(uint32(i), now) && pending[i] == rtlmodel.Forever {
					pending[i] = now + feedback
				}
			}
			if now >= total-window {
				res.avg[i] += rate
			}
		}
		q = math.Max(0, q+(sum-capBps)*float64(dt)/1e12/8)
		if now >= total-window {
			steps++
			utilSum += sum / capBps
			res.maxQueue = math.Max(res.maxQueue, q)
		}
	}
	var s, s2 float64
	for i := range res.avg {
		res.avg[i] /= float64(steps) * 1e9
		s += res.avg[i]
		s2 += res.avg[i] * res.avg[i]
		res.finalRate = append(res.finalRate, rps[i].Rate())
	}
	res.jain = s * s / (float64(n) * s2)
	res.util = utilSum / float64(steps)
	_, res.cnps, _, _ = np.Counts()
	return res
}

// TestDCQCNFluidConvergence: 8 and 16 flows joining one 400G bottleneck
// 2 ms apart share it fairly once converged, with the paper's parameters
// in both increase variants.
func TestDCQCNFluidConvergence(t *testing.T) {
	cases := []struct {
		name string
		p    DCQCNParams
		np   rtlmodel.Time
		n    int
	}{
		{"paper/two-counter/8", PaperParams(400e9), NPIntervalPaper, 8},
		{"paper/two-counter/16", PaperParams(400e9), NPIntervalPaper, 16},
		{"paper/timer-only/16", func() DCQCNParams { p := PaperParams(400e9); p.Variant = TimerOnly; return p }(), NPIntervalPaper, 16},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := runFluid(t, &c.p, c.np, c.n, 2*rtlmodel.Millisecond, 120*rtlmodel.Millisecond, 40*rtlmodel.Millisecond)
			t.Logf("%s: Jain %.4f, utilisation %.3f, max queue %.0f B, CNPs %d, mean rates Gb/s %.1f",
				c.name, r.jain, r.util, r.maxQueue, r.cnps, r.avg)
			assert.GreaterOrEqual(t, r.jain, 0.95)
			assert.Greater(t, r.util, 0.85, "the bottleneck stays busy")
			assert.Less(t, r.maxQueue, 12e6, "queue bounded")
		})
	}
}

// TestDCQCNFluidFirmware runs the same loop with the firmware defaults and
// their 2 µs CNP spacing. It asserts only that the bottleneck stays busy
// and the queue bounded, and logs the fairness: with R_AI = 5 Mb/s, a
// 300 µs increase timer that every cut restarts, and targets that a cut
// leaves alone when no increase came first (clamp_tgt_rate = 0), flows
// that joined late keep much of their head start for a long time: in
// this loop the Jain index is about 0.90 over 300..400 ms.
func TestDCQCNFluidFirmware(t *testing.T) {
	p := FirmwareParams(400e9)
	r := runFluid(t, &p, NPIntervalFirmware, 16, 2*rtlmodel.Millisecond, 400*rtlmodel.Millisecond, 100*rtlmodel.Millisecond)
	t.Logf("firmware/16: Jain %.4f, utilisation %.3f, max queue %.0f B, CNPs %d, mean rates Gb/s %.1f",
		r.jain, r.util, r.maxQueue, r.cnps, r.avg)
	assert.Greater(t, r.util, 0.85)
	assert.Less(t, r.maxQueue, 12e6)
}
