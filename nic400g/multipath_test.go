package nic400g

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// pathOf hashes an entropy to one of 8 paths the way a switch's ECMP
// hash would (a multiplicative hash; the model's switch hashes are in
// switchasic).
func pathOf(entropy uint16) int { return int((uint32(entropy) * 0x9E3779B1) >> 29) }

func TestRoCEv2SourcePortKnownAnswers(t *testing.T) {
	// rdma_flow_label_to_udp_sport [R7]: low 14 bits XOR the top 6 of 20
	assert.Equal(t, uint16(0xC000), RoCEv2SourcePort(0))
	assert.Equal(t, uint16(0xFFFF), RoCEv2SourcePort(0x03FFF))
	assert.Equal(t, uint16(0xC001), RoCEv2SourcePort(0x04000))
	assert.Equal(t, uint16(0xC03F), RoCEv2SourcePort(0xFC000))
	// rdma_calc_flow_label: 3·5 = 15, no folding
	assert.Equal(t, uint32(15), RoCEv2FlowLabel(3, 5))
	assert.Equal(t, RoCEv2FlowLabel(0x123456, 0xABCDEF), RoCEv2FlowLabel(0xABCDEF, 0x123456), "symmetric")
	v := uint64(0x123456) * 0xABCDEF
	v ^= v >> 20
	v ^= v >> 40
	assert.Equal(t, uint32(v&0xFFFFF), RoCEv2FlowLabel(0x123456, 0xABCDEF))

	f := NewRoCEv2FixedPath(0x123456, 0xABCDEF)
	e := f.Next(0)
	assert.GreaterOrEqual(t, e, RoCEv2SportMin)
	for i := range 100 {
		f.OnFeedback(rtlmodel.Time(i), e, PathECN)
		assert.Equal(t, e, f.Next(rtlmodel.Time(i)), "ECMP keeps one entropy")
	}
}

func TestSprayParamsValidate(t *testing.T) {
	p := DefaultSprayParams(EntropyRoCEv2)
	require.NoError(t, p.Validate())
	p.SetSize = 100
	assert.ErrorContains(t, p.Validate(), "SprayParams.SetSize")
	p.SetSize = 1 << 15
	assert.ErrorContains(t, p.Validate(), "SprayParams.SetSize", "beyond 14 bits")
	p = DefaultSprayParams(EntropySpace(9))
	assert.ErrorContains(t, p.Validate(), "SprayParams.Space")
	a := DefaultPathAwareParams(EntropyUET)
	require.NoError(t, a.Validate())
	a.MaxPenalty = 0
	assert.ErrorContains(t, a.Validate(), "PathAwareParams.MaxPenalty")
	a = DefaultPathAwareParams(EntropyUET)
	a.SetSize = 3
	assert.ErrorContains(t, a.Validate(), "PathAwareParams.SprayParams.SetSize")
	a = DefaultPathAwareParams(EntropyUET)
	a.Penalty[PathOK] = 1
	assert.ErrorContains(t, a.Validate(), "PathAwareParams.Penalty[PathOK]")
}

func TestObliviousSprayCoversTheSetEvenly(t *testing.T) {
	for _, space := range []EntropySpace{EntropyRoCEv2, EntropyUET} {
		p := DefaultSprayParams(space)
		o, err := NewObliviousSpray(p, "flow0")
		require.NoError(t, err)
		counts := map[uint16]int{}
		const cycles = 40
		for range cycles * DefaultEntropySetSize {
			e := o.Next(0)
			if space == EntropyRoCEv2 {
				require.GreaterOrEqual(t, e, RoCEv2SportMin, "RoCEv2 source port range")
			}
			counts[e]++
		}
		assert.Len(t, counts, DefaultEntropySetSize, space.String())
		for e, c := range counts {
			assert.Equal(t, cycles, c, "entropy %#x", e) // every cycle visits each value once
		}

		// uniform draws: every count within 5 σ of the mean
		p.Random = true
		r, err := NewObliviousSpray(p, "flow0")
		require.NoError(t, err)
		clear(counts)
		const draws = 400 * DefaultEntropySetSize
		for range draws {
			counts[r.Next(0)]++
		}
		assert.Len(t, counts, DefaultEntropySetSize)
		for e, c := range counts {
			assert.InDelta(t, 400, c, 5*20, "entropy %#x", e)
		}
	}
	// different flows get different sets, the same flow the same set
	a, _ := NewObliviousSpray(DefaultSprayParams(EntropyUET), "a")
	b, _ := NewObliviousSpray(DefaultSprayParams(EntropyUET), "b")
	a2, _ := NewObliviousSpray(DefaultSprayParams(EntropyUET), "a")
	assert.NotEqual(t, a.Entropy(0), b.Entropy(0))
	assert.Equal(t, a.Entropy(7), a2.Entropy(7))
}

// badPathRun sends one 4 KB packet every 82 ns (400G) through a selector
// for the given time, with entropies hashed to 8 paths; while bad is set,
// every packet on path 3 is CE-marked and every other one is trimmed; all
// other packets are acknowledged cleanly one RTT (4 µs) later. It returns
// the share of packets sent on path 3.
func badPathRun(s PathSelector, start, dur rtlmodel.Time, bad bool) float64 {
	const (
		gap = 82 * rtlmodel.Nanosecond
		rtt = 4 * rtlmodel.Microsecond
		q   = int(rtt/gap) + 1
	)
	type fb struct {
		at rtlmodel.Time
		e  uint16
		ev PathEvent
	}
	ring := make([]fb, q)
	var n, onBad, k int
	for now := start; now < start+dur; now += gap {
		if f := ring[k%q]; f.at != 0 && f.at <= now {
			s.OnFeedback(now, f.e, f.ev)
		}
		e := s.Next(now)
		ev := PathOK
		if pathOf(e) == 3 {
			onBad++
			if bad {
				ev = PathECN
				if n%2 == 0 {
					ev = PathTrim
				}
			}
		}
		ring[k%q] = fb{now + rtt, e, ev}
		k++
		n++
	}
	return float64(onBad) / float64(n)
}

func TestPathAwareSprayMovesOffABadPathAndBack(t *testing.T) {
	for _, recycle := range []uint32{0, 64} {
		p := DefaultPathAwareParams(EntropyRoCEv2)
		p.Recycle = recycle
		s, err := NewPathAwareSpray(p, "flow0")
		require.NoError(t, err)
		base := 0
		for i := range uint16(DefaultEntropySetSize) {
			if pathOf(s.Entropy(i)) == 3 {
				base++
			}
		}
		baseline := float64(base) / DefaultEntropySetSize
		require.InDelta(t, 1.0/8, baseline, 0.05, "the hash spreads the set over 8 paths")

		const ms = rtlmodel.Millisecond
		// Without recycling the cycle visits the whole set, so a healthy
		// fabric sees path 3 at its share of the set. With recycling the
		// flow keeps reusing the about RTT/gap entropies in flight (REPS),
		// so the share is that of those, within a few per cent.
		tol, badMax := 0.01, baseline/2
		if recycle != 0 {
			tol, badMax = 0.05, baseline/10
		}
		warm := badPathRun(s, rtlmodel.Microsecond, ms/2, false)
		assert.InDelta(t, baseline, warm, tol, "healthy fabric: share of path 3 is its share of the set")
		during := badPathRun(s, ms, ms, true)
		assert.Less(t, during, badMax, "recycle %d: share on the bad path %.4f vs %.4f", recycle, during, baseline)
		after := badPathRun(s, 2*ms+200*rtlmodel.Microsecond, ms, false)
		assert.InDelta(t, baseline, after, max(tol, baseline*0.15), "recycle %d: share recovers after the penalties decay", recycle)
		t.Logf("recycle %d: path-3 share %.4f healthy, %.4f while bad, %.4f after (set share %.4f)", recycle, warm, during, after, baseline)

		skips, rec, exp, ev := s.Counts()
		assert.NotZero(t, ev[PathECN])
		assert.NotZero(t, ev[PathTrim])
		if recycle != 0 {
			assert.NotZero(t, rec)
		} else {
			assert.Zero(t, rec)
			assert.NotZero(t, skips)
		}
		assert.NotZero(t, exp)
	}
}

func TestPathAwareSprayScoresAndDecay(t *testing.T) {
	p := DefaultPathAwareParams(EntropyUET)
	p.SetSize = 4
	s, err := NewPathAwareSpray(p, "small")
	require.NoError(t, err)
	e := s.Entropy(2)
	s.OnFeedback(0, e, PathECN)
	assert.Equal(t, uint8(1), s.Score(0, e))
	s.OnFeedback(0, e, PathTrim)
	s.OnFeedback(0, e, PathNACK)
	assert.Equal(t, uint8(2), s.Score(0, e), "capped at MaxPenalty")
	assert.Equal(t, uint8(1), s.Score(p.DecayPeriod, e), "one step of time decay")
	assert.Equal(t, uint8(0), s.Score(5*p.DecayPeriod, e))
	s.OnFeedback(6*p.DecayPeriod, e, PathTimeout)
	assert.Equal(t, uint8(2), s.Score(6*p.DecayPeriod, e))
	// the next four draws skip e twice, each skip lowering its score
	now := 6 * p.DecayPeriod
	for range 6 {
		assert.NotEqual(t, e, s.Next(now))
	}
	assert.Equal(t, uint8(0), s.Score(now, e))
	// every entropy penalised: Next still returns, after lowering scores
	for i := range uint16(4) {
		s.OnFeedback(now, s.Entropy(i), PathTimeout)
	}
	_ = s.Next(now)
}
