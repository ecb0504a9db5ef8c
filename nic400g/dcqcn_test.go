package nic400g

import (
	"math"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

const us = rtlmodel.Microsecond

func TestDCQCNParamsValid(t *testing.T) {
	for _, p := range []DCQCNParams{PaperParams(400e9), FirmwareParams(400e9), PaperParams(40e9)} {
		require.NoError(t, p.Validate())
	}
	p := PaperParams(400e9)
	assert.Equal(t, Kbps(400_000_000), p.LineRate)
	assert.Equal(t, 400*KbpsPerMbps, p.RAI, "40 Mb/s at 40G scaled to 400G")
	assert.Equal(t, 2*KbpsPerGbps, p.RHAI, "200 Mb/s at 40G scaled to 400G")
	assert.Equal(t, 40*KbpsPerMbps, PaperParams(40e9).RAI)
	bad := p
	bad.GNum = 256
	assert.Error(t, bad.Validate())
	bad = p
	bad.InitialAlpha = p.AlphaMax + 1
	assert.Error(t, bad.Validate())
	bad = p
	bad.AlphaPeriod = 0
	assert.Error(t, bad.Validate())
}

// floatRP is an independent float64 reading of the FACTS 2.1 rules in
// the two-counter variant, driven by a hand-written event schedule.
type floatRP struct {
	alpha, cur, tgt    float64 // α as a fraction, rates in kb/s
	t, bc              int
	cnpAlpha, cnpDecr  bool
	g, rai, rhai, line float64
	f                  int
	clampAlways        bool
}

func (r *floatRP) event(kind byte) {
	switch kind {
	case 'c': // CNP; the first one only sets α = 1 and arms the decrease
		if r.alpha < 0 {
			r.alpha = 1
		} else {
			r.cnpAlpha = true
		}
		r.cnpDecr = true
	case 'a':
		r.alpha *= 1 - r.g
		if r.cnpAlpha {
			r.alpha += r.g
		}
		r.cnpAlpha = false
	case 'd':
		if !r.cnpDecr {
			return
		}
		r.cnpDecr = false
		if r.clampAlways || r.t+r.bc > 0 {
			r.tgt = r.cur
		}
		r.cur *= 1 - r.alpha/2
		r.t, r.bc = 0, 0
	case 'i', 'b':
		if kind == 'i' {
			r.t++
		} else {
			r.bc++
		}
		hi, lo := max(r.t, r.bc), min(r.t, r.bc)
		switch {
		case hi <= r.f:
		case lo > r.f:
			r.tgt += float64(lo-r.f) * r.rhai
		default:
			r.tgt += r.rai
		}
		r.tgt = math.Min(r.tgt, r.line)
		r.cur = (r.cur + r.tgt) / 2
	}
}

// TestDCQCNKnownAnswerPaper drives a paper-parameter reaction point at
// 400G through two CNPs, the timers that follow and one byte-counter
// event, and checks every step against float arithmetic of the same rules
// and against pinned fixed-point values.
func TestDCQCNKnownAnswerPaper(t *testing.T) {
	p := PaperParams(400e9)
	rp := NewReactionPoint(&p)

	// The hand schedule. CNPs at 0 and 120 µs. α timer every 55 µs from
	// the first CNP; decrease check every 50 µs from it; the increase
	// timer starts at each cut (50 µs, then 150 µs) and runs every 55 µs,
	// so its expiry at 160 µs is cancelled by the cut at 150 µs. At 500
	// µs 10 MB are reported sent: one byte-counter event.
	type ev struct {
		at   rtlmodel.Time
		kind byte
		ord  int
	}
	var evs []ev
	add := func(at rtlmodel.Time, k byte, ord int) { evs = append(evs, ev{at, k, ord}) }
	add(0, 'c', 3)
	add(120*us, 'c', 3)
	add(500*us, 'b', 3)
	for at := 55 * us; at <= 600*us; at += 55 * us {
		add(at, 'a', 0)
	}
	for at := 50 * us; at <= 600*us; at += 50 * us {
		add(at, 'd', 1)
	}
	add(105*us, 'i', 2)
	for at := 205 * us; at <= 600*us; at += 55 * us {
		add(at, 'i', 2)
	}
	sort.SliceStable(evs, func(i, j int) bool {
		if evs[i].at != evs[j].at {
			return evs[i].at < evs[j].at
		}
		return evs[i].ord < evs[j].ord
	})

	line := float64(p.LineRate)
	ref := &floatRP{alpha: -1, cur: line, tgt: line, g: 1.0 / 256, rai: float64(p.RAI), rhai: float64(p.RHAI),
		line: line, f: int(p.F), clampAlways: true}
	one := float64(uint64(1) << p.AlphaBits)
	for _, e := range evs {
		switch e.kind {
		case 'c':
			rp.OnCNP(e.at)
		case 'b':
			rp.OnBytesSent(e.at, 10_000_000)
		default:
			rp.Advance(e.at)
		}
		ref.event(e.kind)
		// α within one LSB of the float value; the rate within one LSB
		// plus what the α difference of every cut so far can carry
		// (rate·Δα/2, below 2 kb/s here).
		assert.InDelta(t, ref.alpha*one, float64(rp.Alpha()), 1, "α at %v (%c)", e.at, e.kind)
		assert.InDelta(t, ref.cur, float64(rp.Rate()), 3, "rate at %v (%c)", e.at, e.kind)
		assert.InDelta(t, ref.tgt, float64(rp.Target()), 3, "target at %v (%c)", e.at, e.kind)
		if t.Failed() {
			return
		}
	}

	// Pinned values, worked by hand in kb/s and α/65536:
	//   50 µs  cut 400e6·65536/2^17 = 200e6      → rate 200,000,000
	//   55/110 α 65536·255/256 = 65280, 65280·255/256 = 65025
	//   105 µs fast recovery ⌈(200e6+400e6)/2⌉   → 300,000,000
	//   150 µs cut ⌊300e6·65025/2^17⌋ = 148,830,413 → 151,169,587
	//   165 µs α ⌊(65025·255+128)/256⌋ + 256     = 65,027
	//   205 µs ⌈(151,169,587 + 300e6)/2⌉         = 225,584,794
	check := func(at rtlmodel.Time, rate, tgt Kbps, alpha uint32) {
		t.Helper()
		r := NewReactionPoint(&p)
		r.OnCNP(0)
		if at >= 120*us {
			r.Advance(120*us - 1)
			r.OnCNP(120 * us)
		}
		r.Advance(at)
		assert.Equal(t, rate, r.Rate(), "rate at %v", at)
		assert.Equal(t, tgt, r.Target(), "target at %v", at)
		assert.Equal(t, alpha, r.Alpha(), "α at %v", at)
	}
	check(50*us, 200_000_000, 400_000_000, 65536)
	check(55*us, 200_000_000, 400_000_000, 65280)
	check(105*us, 300_000_000, 400_000_000, 65280)
	check(110*us, 300_000_000, 400_000_000, 65025)
	check(150*us, 151_169_587, 300_000_000, 65025)
	check(165*us, 151_169_587, 300_000_000, 65027)
	check(205*us, 225_584_794, 300_000_000, 65027)

	// After the run: five fast-recovery timer events (205..425 µs), an
	// additive increase at 480 µs (T = 6 > F, BC = 0), the byte event at
	// 500 µs (T = 6, BC = 1: additive) and the timers at 535 and 590 µs
	// (BC = 1 <= F: additive): the target is 300e6 + 4·R_AI.
	tt, bc := rp.Stages()
	assert.Equal(t, uint32(8), tt)
	assert.Equal(t, uint32(1), bc)
	assert.Equal(t, Kbps(300_000_000)+4*p.RAI, rp.Target())
	cnps, cuts, incs := rp.Counts()
	assert.Equal(t, [3]uint64{2, 2, 10}, [3]uint64{cnps, cuts, incs})
	assert.Equal(t, 605*us, rp.NextEvent(), "next: α at 11·55 µs = 605 µs (decrease 650 µs, increase 645 µs)")
}

// TestDCQCNFirmwareFirstCut checks the firmware set's first cut: 10-bit α
// = 1023, rpg_gd = 11, bounded by rpg_min_dec_fac = 50 %.
func TestDCQCNFirmwareFirstCut(t *testing.T) {
	p := FirmwareParams(400e9)
	rp := NewReactionPoint(&p)
	rp.OnCNP(10 * us)
	assert.Equal(t, 11*us, rp.NextEvent(), "α timer 1 µs after the CNP")
	rp.Advance(11 * us)
	assert.Equal(t, uint32(1018), rp.Alpha(), "⌊1023·1019/1024⌋ with no CNP since the first")
	rp.Advance(14 * us)
	// α after 4 updates without CNP: 1023 → 1018 → 1013 → 1008 → 1003.
	assert.Equal(t, uint32(1003), rp.Alpha())
	// cut at 14 µs: ⌊400e6·1003/2048⌋ = 195,898,437 (below the 50 % bound)
	assert.Equal(t, Kbps(400_000_000-195_898_437), rp.Rate())
	// truncation lets α decay to 0 with no further CNP
	rp.Advance(3000 * us)
	assert.Equal(t, uint32(0), rp.Alpha())
	assert.Equal(t, Kbps(400_000_000), rp.Target(), "no clamp: no increase before the first cut, target keeps line rate")

	// the 50 % bound binds when the cut shift is smaller
	q := p
	q.GD = 10
	r2 := NewReactionPoint(&q)
	r2.OnCNP(0)
	r2.Advance(4 * us)
	assert.Equal(t, Kbps(200_000_000), r2.Rate(), "cut of ~98 % limited to 50 %")

	// the minimum rate holds after many cuts
	r3 := NewReactionPoint(&p)
	for at := rtlmodel.Time(0); at < 2000*us; at += us {
		r3.OnCNP(at)
	}
	assert.Equal(t, p.MinRate, r3.Rate())
}

// TestDCQCNVariantsDiverge: with timer events only, both variants run
// fast recovery for F events and an additive increase at event F+1; at
// event F+2 the timer-only variant (artifact [R14]) hyper-increases by a
// constant R_HAI while the two-counter variant (htsim [R66]), whose BC
// counter is still 0, stays in additive increase.
func TestDCQCNVariantsDiverge(t *testing.T) {
	p := PaperParams(400e9)
	p.ByteCounter = 0
	q := p
	q.Variant = TimerOnly
	a, b := NewReactionPoint(&p), NewReactionPoint(&q)
	for _, r := range []*ReactionPoint{a, b} {
		r.OnCNP(0)
		r.OnCNP(60 * us) // cuts at 50 and 100 µs; the second sets the target below line rate
		r.Advance(100 * us)
	}
	incAt := func(k int) rtlmodel.Time { return 100*us + rtlmodel.Time(k)*55*us }
	for k := 1; k <= int(p.F)+1; k++ {
		a.Advance(incAt(k))
		b.Advance(incAt(k))
		assert.Equal(t, a.Rate(), b.Rate(), "event %d", k)
		assert.Equal(t, a.Target(), b.Target(), "event %d", k)
	}
	tgt := a.Target()
	a.Advance(incAt(int(p.F) + 2))
	b.Advance(incAt(int(p.F) + 2))
	assert.Equal(t, tgt+p.RAI, a.Target(), "two-counter: additive")
	assert.Equal(t, tgt+p.RHAI, b.Target(), "timer-only: hyper")

	// With bytes flowing the two-counter variant hyper-increases by
	// (min(T, BC) − F)·R_HAI.
	pb := PaperParams(400e9)
	pb.ByteCounter = 1000
	c := NewReactionPoint(&pb)
	c.OnCNP(0)
	c.OnCNP(60 * us)
	c.Advance(100*us + 7*55*us) // T = 7
	c.OnBytesSent(100*us+7*55*us, 6999)
	_, bc := c.Stages()
	require.Equal(t, uint32(6), bc)
	before := c.Target()
	require.Less(t, before+2*p.RHAI, p.LineRate)
	c.OnBytesSent(100*us+7*55*us, 1) // BC = 7: min(7, 7) − 5 = 2
	assert.Equal(t, before+2*p.RHAI, c.Target())
}

func TestDCQCNRelease(t *testing.T) {
	p := PaperParams(400e9)
	p.ReleaseAtLineRate = true
	rp := NewReactionPoint(&p)
	rp.OnCNP(0)
	for i := 0; i < 1000 && rp.Active(); i++ {
		rp.Advance(rp.NextEvent())
	}
	assert.False(t, rp.Active())
	assert.Equal(t, rtlmodel.Forever, rp.NextEvent())
	assert.Equal(t, p.LineRate, rp.Rate())
}
