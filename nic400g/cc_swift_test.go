package nic400g

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

func TestSwiftParams(t *testing.T) {
	p := DefaultSwiftParams(400e9)
	require.NoError(t, p.Validate())
	assert.Equal(t, rtlmodel.Time(3_053_435), p.HopScale, "20 µs / 6.55")
	assert.Equal(t, 100*us, p.FSRange)
	assert.Equal(t, uint64(1_000_000), p.InitialCwnd, "400G × 20 µs")
	assert.Equal(t, uint64(4_096_000), p.MaxCwnd)
	assert.InDelta(t, 0.1, float64(p.FSMinCwnd)/SwiftOne, 0.5/SwiftOne)

	for _, c := range []struct {
		field string
		mod   func(*SwiftParams)
	}{
		{"LineRate", func(p *SwiftParams) { p.LineRate = 0 }},
		{"MSS", func(p *SwiftParams) { p.MSS = 0 }},
		{"AI", func(p *SwiftParams) { p.AI = 0 }},
		{"Beta", func(p *SwiftParams) { p.Beta = SwiftOne + 1 }},
		{"MaxMDF", func(p *SwiftParams) { p.MaxMDF = 0 }},
		{"BaseTarget", func(p *SwiftParams) { p.BaseTarget = 0 }},
		{"FSMinCwnd", func(p *SwiftParams) { p.FSMinCwnd = 0 }},
		{"FSMaxCwnd", func(p *SwiftParams) { p.FSMaxCwnd = p.FSMinCwnd }},
		{"RetxResetThreshold", func(p *SwiftParams) { p.RetxResetThreshold = 0 }},
		{"MinCwnd", func(p *SwiftParams) { p.MinCwnd = 0 }},
		{"MaxCwnd", func(p *SwiftParams) { p.MaxCwnd = 1 << 32 }},
		{"InitialCwnd", func(p *SwiftParams) { p.InitialCwnd = p.MaxCwnd + 1 }},
	} {
		bad := DefaultSwiftParams(400e9)
		c.mod(&bad)
		err := bad.Validate()
		require.Error(t, err, c.field)
		assert.Contains(t, err.Error(), c.field)
		_, err = NewSwift(&bad)
		assert.Error(t, err)
	}
}

func TestSwiftISqrt(t *testing.T) {
	rng := rtlmodel.NewRNG(3, "swift/isqrt")
	for i := range 10000 {
		x := rng.Uint64() >> (i % 64)
		r := ccISqrt(x)
		require.LessOrEqual(t, r*r, x, "x=%d", x)
		hi, lo := (r+1)*(r+1), x
		require.Greater(t, hi, lo, "x=%d r=%d", x, r)
	}
	assert.Equal(t, uint64(0), ccISqrt(0))
	assert.Equal(t, uint64(1<<32-1), ccISqrt(math.MaxUint64))
}

// swiftTargetF is the float reading of the target delay in ps.
func swiftTargetF(p *SwiftParams, cwndBytes float64, hops uint32) float64 {
	lo := 1 / math.Sqrt(float64(p.FSMinCwnd)/SwiftOne) // 6554: 0.100006 packet
	hi := 1 / math.Sqrt(float64(p.FSMaxCwnd)/SwiftOne)
	a := float64(p.FSRange) / (lo - hi)
	fs := a/math.Sqrt(cwndBytes/float64(p.MSS)) - a*hi
	fs = math.Min(math.Max(fs, 0), float64(p.FSRange))
	return float64(p.BaseTarget) + float64(hops)*float64(p.HopScale) + fs
}

// swiftTargetTol bounds the fixed-point target's error: the window in
// packets and its square root are each truncated to Q.16, which raises
// α_fs/√x by about α_fs/2^16·(1/(2x^1.5) + 1/x), plus 2 ps of division.
func swiftTargetTol(alpha uint64, pkts float64) float64 {
	return 2 + float64(alpha)/SwiftOne*(1/(2*math.Pow(pkts, 1.5))+1/pkts)
}

func TestSwiftTarget(t *testing.T) {
	p := DefaultSwiftParams(400e9)
	s, err := NewSwift(&p)
	require.NoError(t, err)
	a, b := s.FlowScaling()
	assert.InDelta(t, 1e8/(1/math.Sqrt(0.1)-0.1), float64(a), 1e8*1e-4, "0.1 packet is 6554/65536")
	assert.InDelta(t, 1e8/(1/math.Sqrt(6554.0/65536)-0.1), float64(a), 0.5)
	assert.InDelta(t, -float64(a)/10, float64(b), 0.5)
	for _, c := range []struct {
		pkts float64
		hops uint32
	}{{0.01, 0}, {0.1, 0}, {0.5, 2}, {1, 1}, {7.6, 1}, {30, 3}, {100, 0}, {244, 2}} {
		s.cwnd = uint64(c.pkts * 4096 * SwiftOne)
		s.SetHops(c.hops)
		want := swiftTargetF(&p, c.pkts*4096, c.hops)
		assert.InDelta(t, want, float64(s.Target()), swiftTargetTol(a, c.pkts), "%.2f packets, %d hops", c.pkts, c.hops)
	}
	s.SetHops(0)
	s.cwnd = 100 * 4096 * SwiftOne
	assert.Equal(t, p.BaseTarget, s.Target(), "no flow scaling at FSMaxCwnd")
	s.cwnd = 4096 * SwiftOne / 10
	assert.InDelta(t, float64(p.BaseTarget+p.FSRange), float64(s.Target()), 1, "full flow scaling at FSMinCwnd")
}

// TestSwiftStepKnownAnswer checks each ACK of a varied trace against a
// float reading of the FACTS 2.4 / [R19] rules applied to the previous
// state.
func TestSwiftStepKnownAnswer(t *testing.T) {
	p := DefaultSwiftParams(400e9)
	p.InitialCwnd = 64 << 10
	s, err := NewSwift(&p)
	require.NoError(t, err)
	s.SetHops(2)
	now := rtlmodel.Time(0)
	var sawInc, sawDec, sawHold, sawSmall bool
	for i := range 400 {
		// RTTs swing between 15 and 95 µs; a stretch of 400 µs more,
		// with ACKs far enough apart to decrease, drives cwnd below one
		// MSS, and the trace then grows it back
		now += rtlmodel.Time(1+i%7) * us
		rttUs := 15 + float64((i*37)%81)
		if i > 150 && i < 200 {
			rttUs += 400
			now += 150 * us
		}
		rtt := rtlmodel.Time(rttUs * float64(us))
		acked := uint64(1024 + (i*613)%8192)
		cwnd0 := float64(s.Cwnd()) / SwiftOne
		srtt0, last0, dec0 := s.srtt, s.lastDecrease, s.decreased
		target := float64(s.Target())
		wantT := swiftTargetF(&p, cwnd0, 2)
		require.InDelta(t, wantT, target, swiftTargetTol(s.fsAlpha, cwnd0/4096), "step %d: target", i)
		s.OnAck(now, &AckEvent{AckedBytes: acked, RTT: rtt})

		wantSRTT := float64(rtt)
		if srtt0 != 0 {
			wantSRTT = (7*float64(srtt0) + float64(rtt)) / 8
		}
		assert.InDelta(t, wantSRTT, float64(s.SRTT()), 1, "step %d: srtt", i)
		can := !dec0 || now-last0 >= srtt0
		want := cwnd0
		switch {
		case float64(rtt) < target:
			if cwnd0 >= 4096 {
				want += 4096 * float64(acked) / cwnd0
			} else {
				want += float64(acked)
				sawSmall = true
			}
			sawInc = true
		case can:
			want *= math.Max(1-0.8*(float64(rtt)-target)/float64(rtt), 0.5)
			sawDec = true
		default:
			sawHold = true
		}
		want = math.Min(math.Max(want, 10), 4096000)
		got := float64(s.Cwnd()) / SwiftOne
		// the window carries 16 fraction bits; the decrease factor is
		// truncated to Q0.16
		assert.InDelta(t, want, got, 2.0/SwiftOne+cwnd0*2/SwiftOne, "step %d: cwnd (rtt %.0f µs, target %.0f ps)", i, rttUs, target)
	}
	assert.True(t, sawInc && sawDec && sawHold && sawSmall, "the trace covers every branch: inc %v dec %v hold %v small %v", sawInc, sawDec, sawHold, sawSmall)
}

// TestSwiftLaws: additive increase of ai packets per RTT below the
// target; a decrease bounded by max_mdf above it, at most once per RTT;
// pacing below one packet; loss reactions.
func TestSwiftLaws(t *testing.T) {
	p := DefaultSwiftParams(400e9)
	s, err := NewSwift(&p)
	require.NoError(t, err)
	now := 100 * us
	// below target: one window of ACKs adds about ai·MSS
	w0 := s.Window()
	for acked := uint64(0); acked < w0; acked += 4096 {
		s.OnAck(now, &AckEvent{AckedBytes: 4096, RTT: 15 * us})
	}
	assert.InDelta(t, float64(w0+4096), float64(s.Window()), 40, "+1 MSS per RTT")
	// above target: ×(1 − β(rtt − target)/rtt); 30 µs with target ≈ 20.5 µs
	now += 100 * us
	w := float64(s.Cwnd())
	tgt := float64(s.Target())
	s.OnAck(now, &AckEvent{AckedBytes: 4096, RTT: 30 * us})
	assert.InDelta(t, w*(1-0.8*(30e6-tgt)/30e6), float64(s.Cwnd()), w/SwiftOne+2)
	// within one srtt of the decrease: no second decrease
	w = float64(s.Cwnd())
	s.OnAck(now+us, &AckEvent{AckedBytes: 4096, RTT: 300 * us})
	assert.Equal(t, w, float64(s.Cwnd()))
	// a huge delay: the cut is bounded by max_mdf
	now += 400 * us
	s.OnAck(now, &AckEvent{AckedBytes: 4096, RTT: 5000 * us})
	assert.InDelta(t, w/2, float64(s.Cwnd()), 1)

	// below one MSS: paced at cwnd/srtt, not window-limited
	s.cwnd = 2048 * SwiftOne
	s.srtt = 20 * us
	assert.Zero(t, s.Window())
	assert.Equal(t, 40*us, s.PacingDelay())
	assert.Equal(t, Kbps(2048*8e9/20e6), s.Rate())
	s.cwnd = 8192 * SwiftOne
	assert.Zero(t, s.Rate())
	assert.Zero(t, s.PacingDelay())
	assert.Equal(t, uint64(8192), s.Window())

	// losses: a NACK halves once per RTT; five timeouts in a row reset
	now += 100 * us
	s.OnLoss(now, LossNACK)
	assert.Equal(t, uint64(4096*SwiftOne), s.Cwnd())
	s.OnLoss(now, LossTrimmed)
	assert.Equal(t, uint64(4096*SwiftOne), s.Cwnd(), "within one srtt")
	for range 4 {
		now += 100 * us
		s.OnLoss(now, LossTimeout)
	}
	assert.Equal(t, uint64(256*SwiftOne), s.Cwnd())
	s.OnAck(now, &AckEvent{AckedBytes: 0, RTT: 10 * us}) // an ACK resets the count
	now += 100 * us
	s.OnLoss(now, LossTimeout)
	assert.Equal(t, uint64(128*SwiftOne), s.Cwnd())
	for range 4 {
		s.OnLoss(now, LossTimeout)
	}
	assert.Equal(t, uint64(10*SwiftOne), s.Cwnd(), "the fifth timeout drops to MinCwnd")
	_, _, resets := s.Counts()
	assert.Equal(t, uint64(1), resets)
	assert.Equal(t, "swift", s.Name())
	assert.Equal(t, rtlmodel.Forever, s.NextEvent())
}

func BenchmarkSwiftOnAck(b *testing.B) {
	p := DefaultSwiftParams(400e9)
	s, err := NewSwift(&p)
	require.NoError(b, err)
	s.SetHops(2)
	ev := AckEvent{AckedBytes: 4096}
	now := rtlmodel.Time(0)
	var k uint64
	b.ReportAllocs()
	for b.Loop() {
		k++
		now += 100 * rtlmodel.Nanosecond
		ev.RTT = rtlmodel.Time(15+k*7%40) * us
		s.OnAck(now, &ev)
	}
}

func TestSwiftAllocatesNothing(t *testing.T) {
	p := DefaultSwiftParams(400e9)
	s, err := NewSwift(&p)
	require.NoError(t, err)
	ev := AckEvent{AckedBytes: 4096}
	now := rtlmodel.Time(0)
	var k uint64
	assert.Zero(t, testing.AllocsPerRun(1000, func() {
		k++
		now += us
		ev.RTT = rtlmodel.Time(15+k*7%40) * us
		s.OnAck(now, &ev)
		if k%50 == 0 {
			s.OnLoss(now, LossTimeout)
		}
		_ = s.Rate()
	}))
}
