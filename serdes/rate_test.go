package serdes

import (
	"math/big"
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

func TestRatArithmetic(t *testing.T) {
	r := NewRat(6, 4)
	require.Equal(t, uint64(3), r.Num())
	require.Equal(t, uint64(2), r.Den())
	require.True(t, r.Mul(NewRat(2, 3)).Equal(IntRat(1)))
	require.True(t, r.Div(NewRat(3, 4)).Equal(IntRat(2)))
	require.True(t, r.Add(NewRat(1, 6)).Equal(NewRat(5, 3)))
	require.True(t, r.Sub(NewRat(1, 2)).Equal(IntRat(1)))
	require.Equal(t, -1, NewRat(1, 3).Cmp(NewRat(1, 2)))
	require.Equal(t, "3/2", r.String())
	require.Equal(t, "7", IntRat(7).String())
	require.Equal(t, 0, big.NewRat(3, 2).Cmp(r.Big()))
	require.Equal(t, 1.5, r.Float64())
	var zero Rat
	require.True(t, zero.Mul(r).Equal(IntRat(0)))
	require.Panics(t, func() { NewRat(1, 0) })
	require.Panics(t, func() { NewRat(1, 2).Sub(IntRat(1)) })
	require.Panics(t, func() { IntRat(1 << 40).Mul(IntRat(1 << 40)) })
}

func TestLaneRates(t *testing.T) {
	require.True(t, LaneRate.BitsPerSecond().Equal(NewRat(10625, 100).Mul(IntRat(Gbps))), "106.25 Gb/s")
	require.Equal(t, "106.25 Gb/s", LaneRate.String())
	for _, c := range []struct {
		lanes int
		line  Rat
		mac   uint64
		name  string
	}{
		{1, NewRat(10625*Gbps, 100), 100, "100G"},
		{2, NewRat(2125*Gbps, 10), 200, "200G"},
		{4, IntRat(425 * Gbps), 400, "400G"},
		{8, IntRat(850 * Gbps), 800, "800G"},
	} {
		g, err := NewLaneGroup(c.lanes)
		require.NoError(t, err)
		require.Equal(t, c.name, g.String())
		require.True(t, g.LineRate().BitsPerSecond().Equal(c.line), c.name)
		require.True(t, g.MACRate().Equal(RateBPS(c.mac*Gbps)), c.name)
		require.True(t, LineRateOf(g.MACRate()).Equal(g.LineRate()), c.name)
		require.True(t, MACRateOf(g.LineRate()).Equal(g.MACRate()), c.name)
	}
	_, err := NewLaneGroup(3)
	require.Error(t, err)
	d, ok := Port400G.Degraded(1)
	require.True(t, ok)
	require.Equal(t, Port200G, d)
	d, ok = Port800G.Degraded(1)
	require.True(t, ok)
	require.Equal(t, Port400G, d)
	_, ok = Port100G.Degraded(1)
	require.False(t, ok)
}

// The chain of FACTS 3: 100 Gb/s -> 64b/66b -> 256b/257b -> RS(544,514)
// lands exactly on 106.25 Gb/s, checked both with Rat and with math/big.
func TestRateChainExact(t *testing.T) {
	steps := RateChain(LaneMACRate)
	require.Len(t, steps, 4)
	want := []*big.Rat{
		big.NewRat(100e9, 1),
		big.NewRat(103125e6, 1),    // x 66/64
		big.NewRat(100390625e3, 1), // x 257/264
		big.NewRat(10625e7, 1),     // x 544/514
	}
	acc := big.NewRat(100e9, 1)
	for i, s := range steps {
		if i > 0 {
			acc.Mul(acc, s.Ratio.Big())
		}
		require.Equal(t, 0, want[i].Cmp(s.Rate.BitsPerSecond().Big()), "%s: got %v", s.Name, s.Rate)
		require.Equal(t, 0, acc.Cmp(want[i]), s.Name)
		t.Logf("%-20s x %-8v = %v b/s", s.Name, s.Ratio, s.Rate.BitsPerSecond())
	}
	require.True(t, steps[3].Rate.Equal(LaneRate))
	// net factor 17/16
	require.True(t, Ratio64b66b.Mul(RatioTranscode).Mul(RatioRS544).Equal(NewRat(17, 16)))
}

func TestSerializerExactAndDriftFree(t *testing.T) {
	// one codeword at one lane: 5440 b / 106.25 Gb/s = 51.2 ns exactly
	ps, rem := LaneRate.SerialTimePS(RS544CodewordBits)
	require.Equal(t, uint64(51200), ps)
	require.Zero(t, rem)
	// 1 bit at 425 Gb/s = 40/17 ps
	require.True(t, Port400G.LineRate().SerialTime(1).Equal(NewRat(40, 17)))

	// back-to-back 4 KB frames (with preamble and gap) timed at the 400G
	// line rate (40/17 ps per bit, never a whole number per frame) for about
	// one simulated second: the sum of the returned ps equals the exact total
	// rounded down.
	const frameBits = (4096 + 8 + 12) * 8
	s := NewSerializer(Port400G.LineRate())
	var total uint64
	const n = 12_900_000 // about 1 s at 425 Gb/s
	for i := 0; i < n; i++ {
		total += s.Advance(frameBits)
	}
	exact := Port400G.LineRate().SerialTime(uint64(n) * frameBits)
	require.Equal(t, exact.Num()/exact.Den(), total)
	require.Equal(t, uint64(n)*frameBits, s.Bits())
	t.Logf("%d frames of %d bits at 425 Gb/s: %d ps, remainder %d/%d", n, frameBits, total, s.Remainder(), s.Divisor())

	// a rate with a fractional period per bit
	s = NewSerializer(Port400G.LineRate())
	var sum uint64
	for i := 0; i < 17; i++ {
		sum += s.Advance(1)
	}
	require.Equal(t, uint64(40), sum, "17 bits at 425 Gb/s take exactly 40 ps")
	require.Zero(t, s.Remainder())
}

// AdvanceSplit of a Split gives what Advance gives, remainder and all,
// over random frames and gaps at rates whose bit times are not whole
// picoseconds; a serializer gives back its rate.
func TestAdvanceSplitIsAdvance(t *testing.T) {
	rng := rtlmodel.NewRNG(3, "split")
	for _, r := range []Rate{RateOf(NewRat(400_000_000_000, 1)), RateOf(NewRat(425_000_000_000, 1)), RateOf(NewRat(106_250_000_000, 3))} {
		a, b := NewSerializer(r), NewSerializer(r)
		require.Equal(t, r, a.Rate())
		gap := uint64(12 * 8)
		ps, rem := b.Split(gap)
		for i := 0; i < 10_000; i++ {
			n := uint64(64+rng.Intn(9000)) * 8
			require.Equal(t, a.Advance(n), b.Advance(n))
			require.Equal(t, a.Advance(gap), b.AdvanceSplit(gap, ps, rem), "gap %d at %v", i, r)
			require.Equal(t, a.Remainder(), b.Remainder())
		}
		require.Equal(t, a.Bits(), b.Bits())
	}
}
