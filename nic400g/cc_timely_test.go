package nic400g

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

func TestTimelyParams(t *testing.T) {
	p := DefaultTimelyParams(400e9)
	require.NoError(t, p.Validate())
	assert.Equal(t, 400*KbpsPerMbps, p.AddStep, "10 Mb/s per 10 Gb/s")
	assert.Equal(t, 2*KbpsPerGbps, p.HAIStep, "50 Mb/s per 10 Gb/s")
	assert.Equal(t, 10*KbpsPerMbps, DefaultTimelyParams(10e9).AddStep)
	assert.InDelta(t, 0.875, float64(p.Alpha)/TimelyOne, 0)
	assert.InDelta(t, 0.8, float64(p.Beta)/TimelyOne, 0.5/TimelyOne)
	pp := PaperTimelyParams(400e9)
	require.NoError(t, pp.Validate())
	assert.Equal(t, 10*KbpsPerMbps, pp.AddStep)

	for _, c := range []struct {
		field string
		mod   func(*TimelyParams)
	}{
		{"LineRate", func(p *TimelyParams) { p.LineRate = 0 }},
		{"MinRate", func(p *TimelyParams) { p.MinRate = p.LineRate + 1 }},
		{"Alpha", func(p *TimelyParams) { p.Alpha = 0 }},
		{"Beta", func(p *TimelyParams) { p.Beta = TimelyOne + 1 }},
		{"TLow", func(p *TimelyParams) { p.TLow = p.THigh }},
		{"MinRTT", func(p *TimelyParams) { p.MinRTT = 0 }},
		{"AddStep", func(p *TimelyParams) { p.AddStep = 0 }},
		{"HAIStep", func(p *TimelyParams) { p.HAIStep = 0 }},
	} {
		bad := DefaultTimelyParams(400e9)
		c.mod(&bad)
		err := bad.Validate()
		require.Error(t, err, c.field)
		assert.Contains(t, err.Error(), c.field)
		_, err = NewTimely(&bad)
		assert.Error(t, err)
	}
}

// timelyUpdate acknowledges one 4 KB packet with the RTT sample rtt,
// always past the previous update (a full update).
func timelyUpdate(c *Timely, rtt rtlmodel.Time) {
	c.onSendPayload(4096)
	c.OnAck(0, &AckEvent{AckedBytes: 4096, RTT: rtt})
}

// TestTimelyStepKnownAnswer checks each update of a varied RTT trace
// against a float reading of FACTS 2.3 applied to the previous state:
// rttDiff within 1 ps, the rate within 2 kb/s plus two Q0.16 LSBs of it
// (the gradient and the product β·g are each truncated).
func TestTimelyStepKnownAnswer(t *testing.T) {
	p := DefaultTimelyParams(400e9)
	c, err := NewTimely(&p)
	require.NoError(t, err)
	rtts := []float64{30, 40, 60, 65, 90, 140, 120, 119, 200, 380, 600, 900, 700, 450, 300, 310, 330, 100, 60, 45, 20, 20, 20, 20, 20, 20, 20, 55, 56, 57, 58, 2000}
	timelyUpdate(c, 25*us) // first sample: recorded only
	last := 25.0
	alpha, beta := 0.875, 0.8
	var sawHAI, sawHigh, sawGrad bool
	for i, r := range rtts {
		diff0, rate0, stage0 := float64(c.RTTDiff()), float64(c.Rate()), c.IncStage()
		rtt := rtlmodel.Time(r * float64(us))
		timelyUpdate(c, rtt)
		wantDiff := (1-alpha)*diff0 + alpha*(r-last)*1e6
		last = r
		assert.InDelta(t, wantDiff, float64(c.RTTDiff()), 1, "step %d: rttDiff", i)
		g := wantDiff / 20e6
		var want float64
		inc := false
		switch {
		case r < 50:
			inc = true
		case r > 500:
			want = rate0 * (1 - beta*(1-500/r))
			sawHigh = true
		case g <= 0:
			inc = true
		default:
			want = rate0 * math.Max(0, 1-beta*g)
			sawGrad = true
		}
		if inc {
			step := 400e3
			if stage0 >= 5 {
				step, sawHAI = 2e6, true
			}
			want = math.Min(rate0+step, 400e6)
			assert.Equal(t, stage0+1, c.IncStage(), "step %d", i)
		} else {
			want = math.Max(want, 1e6)
			assert.Zero(t, c.IncStage(), "step %d", i)
		}
		// two truncations (the gradient, then β·g) each cost one LSB of c
		assert.InDelta(t, want, float64(c.Rate()), 2+2*rate0/TimelyOne, "step %d: rtt %.0f µs, g %.3f", i, r, g)
		assert.InDelta(t, g*TimelyOne, float64(c.Gradient()), 1+TimelyOne/20e6, "step %d: gradient", i)
	}
	assert.True(t, sawHAI && sawHigh && sawGrad, "the trace covers every branch")
}

// TestTimelyLaws: increase below T_low (hyper after five), multiplicative
// decrease above T_high, and the gradient response in between.
func TestTimelyLaws(t *testing.T) {
	p := DefaultTimelyParams(400e9)
	c, err := NewTimely(&p)
	require.NoError(t, err)
	assert.Equal(t, p.LineRate, c.Rate())
	timelyUpdate(c, 52*us) // recorded only
	timelyUpdate(c, 52*us) // flat: increase, capped at line rate
	assert.Equal(t, p.LineRate, c.Rate())
	// rising RTT between the thresholds: ×(1 − β·g), g = 0.875·2 µs/20 µs
	timelyUpdate(c, 54*us)
	g := float64(c.Gradient()) / TimelyOne
	assert.InDelta(t, 0.0875, g, 1.0/TimelyOne)
	assert.InDelta(t, 400e6*(1-0.8*0.0875), float64(c.Rate()), 2*400e6/TimelyOne+1)
	// falling RTT between the thresholds: increase by δ
	r := c.Rate()
	timelyUpdate(c, 53*us)
	assert.Negative(t, c.Gradient())
	assert.Equal(t, r+p.AddStep, c.Rate())
	// above T_high: ×(1 − β(1 − T_high/rtt)), 1000 µs → ×0.6
	r = c.Rate()
	timelyUpdate(c, 1000*us)
	assert.InDelta(t, float64(r)*0.6, float64(c.Rate()), float64(r)/TimelyOne+1)
	// below T_low, whatever the gradient: +δ five times, then +HAIStep
	r = c.Rate()
	for i := range 7 {
		timelyUpdate(c, 30*us)
		step := p.AddStep
		if i >= 5 {
			step = p.HAIStep
		}
		assert.Equal(t, r+step, c.Rate(), "increase %d", i)
		r = c.Rate()
	}
	// a steep rise: the factor clamps at 0 and the floor holds
	timelyUpdate(c, 400*us)
	assert.Equal(t, p.MinRate, c.Rate())

	// ACKs that do not pass the last update, and ACKs without RTT, do nothing
	r = c.Rate()
	c.OnAck(0, &AckEvent{RTT: 10 * us})
	c.onSendPayload(4096)
	c.OnAck(0, &AckEvent{AckedBytes: 4096})
	assert.Equal(t, r, c.Rate())
	inc, dec := c.Counts()
	assert.Positive(t, inc)
	assert.Positive(t, dec)
	assert.Zero(t, c.Window())
	assert.Equal(t, "timely", c.Name())
	assert.Equal(t, rtlmodel.Forever, c.NextEvent())
}

func BenchmarkTimelyOnAck(b *testing.B) {
	p := DefaultTimelyParams(400e9)
	c, err := NewTimely(&p)
	require.NoError(b, err)
	ev := AckEvent{AckedBytes: 4096}
	var k uint64
	b.ReportAllocs()
	for b.Loop() {
		k++
		ev.RTT = rtlmodel.Time(20+k*7%600) * us
		c.onSendPayload(4096)
		c.OnAck(0, &ev)
	}
}

func TestTimelyAllocatesNothing(t *testing.T) {
	p := DefaultTimelyParams(400e9)
	c, err := NewTimely(&p)
	require.NoError(t, err)
	ev := AckEvent{AckedBytes: 4096}
	var k uint64
	assert.Zero(t, testing.AllocsPerRun(1000, func() {
		k++
		ev.RTT = rtlmodel.Time(20+k*7%600) * us
		c.onSendPayload(4096)
		c.OnAck(0, &ev)
	}))
}

// With packets lost, the bytes acknowledged stay behind what had been sent
// at the last update until every loss is resent and acknowledged, so an
// update counted by sequence alone waits for all of them. The ACK of a
// packet that left after the last update is a full RTT too: here 100
// packets went out, the first ACK came, and each later ACK is of a resend
// that left after the update before it, 5 us before it came back, while
// the bytes acknowledged stay far behind the 400 KB sent. Each is an
// update (below T_low: an increase); an ACK of a packet that left before
// the last update is not.
func TestTimelyUpdatesOnResendsBehindALoss(t *testing.T) {
	p := DefaultTimelyParams(400e9)
	c, err := NewTimely(&p)
	require.NoError(t, err)
	c.onSendPayload(100 * 4096)
	now := 10 * us
	c.OnAck(now, &AckEvent{AckedBytes: 4096, RTT: 5 * us}) // the first: records the RTT
	for i := 1; i <= 10; i++ {
		now += 10 * us
		c.OnAck(now, &AckEvent{AckedBytes: 4096, RTT: 5 * us}) // left at now − 5 us, after the last update
		inc, dec := c.Counts()
		require.Equal(t, uint64(i), inc, "ACK %d of a resend that left after the last update", i)
		require.Zero(t, dec)
	}
	rate := c.Rate()
	c.OnAck(now+2*us, &AckEvent{AckedBytes: 4096, RTT: 5 * us}) // left 3 us before the last update
	inc, _ := c.Counts()
	require.Equal(t, uint64(10), inc, "a packet that left before the last update")
	require.Equal(t, rate, c.Rate())
}
