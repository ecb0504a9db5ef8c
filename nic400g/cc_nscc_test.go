package nic400g

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

const nsccUs = rtlmodel.Microsecond

// nscc400 is the parameter set of the known-answer tests: 400G, 12 µs
// network RTT, trimming, a 100,000 B initial window.
func nscc400(t *testing.T) *NSCCParams {
	p := DefaultNSCCParams(400e9, 12*nsccUs, true)
	p.InitialWindow = 100_000
	require.NoError(t, p.Validate())
	return &p
}

func TestNSCCDefaultParams(t *testing.T) {
	p := DefaultNSCCParams(400e9, 12*nsccUs, true)
	require.NoError(t, p.Validate())
	// BDP 600,000 B against the 150,000 B reference: a = 4; target 9 µs
	// against 12 µs: b = 0.75 (FACTS 2.6 [R20])
	assert.Equal(t, uint64(600_000), p.BDP())
	assert.Equal(t, uint32(4*NSCCQOne), p.ScaleA)
	assert.Equal(t, uint32(3*NSCCQOne/4), p.ScaleB)
	assert.Equal(t, 9*nsccUs, p.TargetQDelay)
	assert.Equal(t, 36*nsccUs, p.QAThreshold)
	assert.Equal(t, uint64(4*4096*3)<<16, p.AlphaQ16, "α·target = 4·MSS·a·b = 49152 B")
	assert.Equal(t, uint64(5*4096*4), p.FI)
	assert.Equal(t, uint64(2457), p.Eta, "0.15·4096·4 = 2457.6")
	assert.Equal(t, uint32(NSCCQOne), p.FIScale)
	assert.Equal(t, uint64(900_000), p.MaxWindow)
	assert.Equal(t, uint64(4160), p.MinWindow)
	assert.Equal(t, uint64(8*4160), p.AdjustBytes)
	assert.Equal(t, p.MaxWindow, p.InitialWindow)

	q := DefaultNSCCParams(400e9, 12*nsccUs, false)
	assert.Equal(t, 12*nsccUs, q.TargetQDelay, "no trimming: target = 1 RTT")
	assert.Equal(t, uint32(NSCCQOne), q.ScaleB)

	for _, c := range []struct {
		field string
		edit  func(*NSCCParams)
	}{
		{"LineRate", func(p *NSCCParams) { p.LineRate = 0 }},
		{"BaseRTT", func(p *NSCCParams) { p.BaseRTT = 0 }},
		{"MTU", func(p *NSCCParams) { p.MTU = 100 }},
		{"TargetQDelay", func(p *NSCCParams) { p.TargetQDelay = 0 }},
		{"QAThreshold", func(p *NSCCParams) { p.QAThreshold = 1 }},
		{"Gamma", func(p *NSCCParams) { p.Gamma = 0 }},
		{"DelayEWMA", func(p *NSCCParams) { p.DelayEWMA = NSCCQOne + 1 }},
		{"MaxWindow", func(p *NSCCParams) { p.MaxWindow = 1 }},
		{"InitialWindow", func(p *NSCCParams) { p.InitialWindow = p.MaxWindow + 1 }},
		{"FI", func(p *NSCCParams) { p.FI = 1 << 24 }},
	} {
		p := DefaultNSCCParams(400e9, 12*nsccUs, true)
		c.edit(&p)
		assert.ErrorContains(t, p.Validate(), "NSCCParams."+c.field)
	}
}

func ack(bytes uint64, rtt rtlmodel.Time, ece bool) *AckEvent {
	return &AckEvent{AckedBytes: bytes, RTT: rtt, ECE: ece}
}

func TestNSCCKnownAnswers(t *testing.T) {
	t.Run("fair increase then η", func(t *testing.T) {
		n := NewNSCC(nscc400(t))
		// delay 10 µs ≥ target 9 µs, no ECN: inc += FI·acked; the ninth
		// ACK passes 8 MTU and adjusts: 100000 + 9·81920·4096/100000
		for k := 1; k <= 9; k++ {
			n.OnAck(rtlmodel.Time(k)*nsccUs, ack(4096, 22*nsccUs, false))
		}
		assert.Equal(t, uint64(130_198), n.Window())
		// one more ACK after a full period: + 81920·4096/130198 + η 2457
		n.OnAck(13*nsccUs, ack(4096, 22*nsccUs, false))
		assert.Equal(t, uint64(130_198+2577+2457), n.Window())
		assert.Equal(t, uint64(10), n.Counts().Fair)
	})
	t.Run("proportional increase", func(t *testing.T) {
		n := NewNSCC(nscc400(t))
		// delay 3 µs: inc += 49152·4096·(9−3)/9 = 134,217,728 per ACK
		for k := 1; k <= 9; k++ {
			n.OnAck(rtlmodel.Time(k)*nsccUs, ack(4096, 15*nsccUs, false))
		}
		assert.Equal(t, uint64(112_079), n.Window())
		assert.Equal(t, uint64(9), n.Counts().Proportional)
	})
	t.Run("multiplicative decrease", func(t *testing.T) {
		n := NewNSCC(nscc400(t))
		// one ECN ACK with delay 1 ms: avg = 1e9·819/65536 = 12,496,948 ps;
		// cut = 52429·(avg − 9e6)/avg = 14670/65536; cwnd·50866/65536
		// = 77,615; the period has passed, so + η
		n.OnAck(13*nsccUs, ack(4096, 12*nsccUs+rtlmodel.Millisecond, true))
		assert.Equal(t, rtlmodel.Time(12_496_948), n.AvgDelay())
		assert.Equal(t, uint64(77_615+2457), n.Window())
		// a second decrease within one base RTT is not made
		n.OnAck(20*nsccUs, ack(4096, 12*nsccUs+rtlmodel.Millisecond, true))
		assert.Equal(t, uint64(1), n.Counts().Decrease)
	})
	t.Run("ECN at low delay changes nothing", func(t *testing.T) {
		n := NewNSCC(nscc400(t))
		n.OnAck(nsccUs, ack(4096, 14*nsccUs, true))
		assert.Equal(t, uint64(100_000), n.Window())
	})
	t.Run("quick adapt", func(t *testing.T) {
		n := NewNSCC(nscc400(t))
		n.OnSend(0, 40960)
		n.OnAck(nsccUs, ack(4096, 13*nsccUs, false)) // opens the window: ends at 1+12+9 µs
		// past the window with delay 40 µs > 4·target and 4096 B achieved:
		// the window drops to max(achieved, MTU)
		n.OnAck(23*nsccUs, ack(4096, 52*nsccUs, false))
		assert.Equal(t, uint64(4160), n.Window())
		assert.Equal(t, uint64(1), n.Counts().QuickAdapt)
		// the 32,768 B then in flight: their ECN echoes are ignored
		for k := range 8 {
			n.OnAck(rtlmodel.Time(24+k)*nsccUs, ack(4096, 52*nsccUs, true))
		}
		assert.Equal(t, uint64(4160), n.Window())
		assert.Zero(t, n.Counts().Decrease)
	})
	t.Run("NACK", func(t *testing.T) {
		n := NewNSCC(nscc400(t))
		n.OnSend(0, 8192)
		n.OnAck(nsccUs, ack(4096, 13*nsccUs, false))
		w := n.Window()
		n.OnNACK(5*nsccUs, 4096)
		assert.Equal(t, w-4096, n.Window())
		assert.Zero(t, n.InFlight())
		// the NACK armed quick adapt: the first ACK after the window runs it
		n.OnAck(23*nsccUs, ack(4096, 13*nsccUs, false))
		assert.Equal(t, uint64(4160), n.Window())
		n.OnLoss(30*nsccUs, LossTimeout)
		assert.Equal(t, uint64(4160), n.Window(), "floor at one MTU")
	})
	t.Run("fast increase", func(t *testing.T) {
		n := NewNSCC(nscc400(t))
		// delay 0.5 µs: proportional increase until the bytes ACKed in a
		// row pass the window, then +acked·0.25·a = +4096 B per ACK
		var first int
		for k := 1; k <= 80; k++ {
			before := n.Window()
			n.OnAck(rtlmodel.Time(k)*100*rtlmodel.Nanosecond, ack(4096, 12*nsccUs+500*rtlmodel.Nanosecond, false))
			if n.Counts().Fast == 1 && first == 0 {
				first = k
				assert.Greater(t, uint64(4096*k), before, "fast increase starts once the run passes the window")
			}
			if first != 0 {
				assert.GreaterOrEqual(t, n.Window(), before+4096)
			}
		}
		c := n.Counts()
		assert.NotZero(t, first)
		assert.Equal(t, uint64(80-first+1), c.Fast)
		assert.Equal(t, uint64(first-1), c.Proportional)
	})
	t.Run("base RTT follows the smallest sample", func(t *testing.T) {
		n := NewNSCC(nscc400(t))
		n.OnAck(nsccUs, ack(4096, 10*nsccUs, false))
		assert.Equal(t, 10*nsccUs, n.BaseRTT())
		assert.Equal(t, rtlmodel.Forever, n.NextEvent())
		assert.Zero(t, n.Rate())
		assert.Equal(t, "nscc", n.Name())
	})
}
