package serdes

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestCodecPathCleanAndTransfer(t *testing.T) {
	p, err := NewCodecPath(Port400G, InterleaveTwo, 1)
	require.NoError(t, err)
	rng := NewRNG(5)
	msgs := [][]uint16{make([]uint16, RS544K), make([]uint16, RS544K)}
	out := [][]uint16{make([]uint16, RS544K), make([]uint16, RS544K)}
	res := make([]DecodeResult, 2)
	for range 10 {
		for _, m := range msgs {
			randomMessage(rng, m)
		}
		p.Transfer(msgs, out, res)
		require.Equal(t, msgs, out)
		require.Equal(t, DecodeClean, res[0].Status)
	}
	c := p.Counters()
	require.Equal(t, uint64(20), c.Codewords)
	require.Zero(t, c.InjectedBitErrors)
	require.Zero(t, c.ErroredCodewords)
	require.Equal(t, uint64(20*5440), c.LineBits)
	require.Panics(t, func() { p.Transfer(msgs[:1], out, res) })

	_, err = NewCodecPath(LaneGroup(3), InterleaveTwo, 1)
	require.Error(t, err)
	_, err = NewCodecPath(Port100G, Interleave(4), 1)
	require.Error(t, err)
}

func TestCodecPathCorrectsAndCounts(t *testing.T) {
	p, err := NewCodecPath(Port100G, InterleaveNone, 2)
	require.NoError(t, err)
	require.NoError(t, p.Lane(0).SetBER(5e-4))
	rng := NewRNG(6)
	msgs := [][]uint16{make([]uint16, RS544K)}
	out := [][]uint16{make([]uint16, RS544K)}
	res := make([]DecodeResult, 1)
	for range 2000 {
		randomMessage(rng, msgs[0])
		p.Transfer(msgs, out, res)
		require.Equal(t, msgs[0], out[0])
	}
	c := p.Counters()
	require.Zero(t, c.ErroredCodewords)
	require.Equal(t, c.InjectedSymbolErrors, c.CorrectedSymbols)
	require.Equal(t, c.InjectedBitErrors, c.CorrectedBits)
	require.InDelta(t, c.PreFECBER(), c.ObservedPreFECBER(), 1e-12)
	require.Zero(t, c.PostFECBER())
	require.Positive(t, c.CorrectedCodewords)
	t.Logf("BER 5e-4, 2000 codewords: %d corrected codewords, %d symbols, %d bits; pre-FEC BER %.3g",
		c.CorrectedCodewords, c.CorrectedSymbols, c.CorrectedBits, c.PreFECBER())
}

func TestCodecPathLaneFailure(t *testing.T) {
	p, err := NewCodecPath(Port400G, InterleaveTwo, 3)
	require.NoError(t, err)
	cw := [][]uint16{make([]uint16, RS544N), make([]uint16, RS544N)}
	rx := [][]uint16{make([]uint16, RS544N), make([]uint16, RS544N)}
	res := make([]DecodeResult, 2)
	p.TransferCodewords(cw, rx, res)
	p.Lane(2).Fail()
	for range 50 {
		p.TransferCodewords(cw, rx, res)
		require.Equal(t, DecodeUncorrectable, res[0].Status)
		require.Equal(t, DecodeUncorrectable, res[1].Status)
	}
	c := p.Counters()
	require.Equal(t, uint64(100), c.UncorrectableCodewords)
	require.Equal(t, uint64(100), c.ErroredCodewords)
	p.Lane(2).Restore()
	p.TransferCodewords(cw, rx, res)
	require.Equal(t, DecodeClean, res[0].Status)
	g, ok := Port400G.Degraded(1)
	require.True(t, ok)
	t.Logf("one lane of four failed: every codeword uncorrectable; the port degrades to %v at %v", g, g.LineRate())
}

// The two-codeword interleave halves what a burst does to each codeword:
// on one lane with long error bursts, depth 2 loses far fewer codewords.
func TestInterleaveBurstTolerance(t *testing.T) {
	// Bursts of noise (BER 0.5, so nearly every symbol they cover is hit)
	// with a mean length of 50 bits, one per 20,000 bits. Depth 1 loses a
	// codeword when a burst covers more than 15 symbols (~150 bits:
	// e^-3 = 5% of bursts); depth 2 spreads a burst over two codewords and
	// only loses them beyond ~30 symbols (~300 bits: e^-6 = 0.25%), two at a
	// time. Bursts meeting in one codeword add to both.
	ge := GilbertElliott{BadBER: 0.5, GoodToBad: 1.0 / 20_000, BadToGood: 1.0 / 50}
	cer := func(il Interleave) (float64, FECCounters) {
		p, err := NewCodecPath(Port100G, il, 4)
		require.NoError(t, err)
		require.NoError(t, p.Lane(0).SetBurst(ge))
		d := il.Depth()
		cw, rx := make([][]uint16, d), make([][]uint16, d)
		for i := range d {
			cw[i], rx[i] = make([]uint16, RS544N), make([]uint16, RS544N)
		}
		res := make([]DecodeResult, d)
		for range 12_000 / d {
			p.TransferCodewords(cw, rx, res)
		}
		c := p.Counters()
		return c.CodewordErrorRatio(), c
	}
	c1, k1 := cer(InterleaveNone)
	c2, k2 := cer(InterleaveTwo)
	t.Logf("bursts of mean 50 bits at BER 0.5, one per ~20k bits: CER depth 1 = %.4g (%d of %d), depth 2 = %.4g (%d of %d)",
		c1, k1.ErroredCodewords, k1.Codewords, c2, k2.ErroredCodewords, k2.Codewords)
	require.Positive(t, c1)
	require.Less(t, c2, c1/3)
}

func TestHighSERAlarm(t *testing.T) {
	// symbol error ratio at the threshold, and the BER it corresponds to
	ser := float64(HighSERThresholdRS544) / (HighSERWindow * RS544N)
	ber := -math.Expm1(math.Log1p(-ser) / GFBits)
	t.Logf("hi-SER threshold %d symbols per %d codewords: SER %.4g, i.e. independent BER %.4g", HighSERThresholdRS544, HighSERWindow, ser, ber)
	t.Logf("at the design point BER %g a window holds %.0f symbol errors on average, above the threshold",
		DesignPreFECBER, HighSERWindow*RS544N*SymbolErrorProb(DesignPreFECBER))

	run := func(ber float64) *HighSERMonitor {
		p, err := NewCodecPath(Port100G, InterleaveNone, 8)
		require.NoError(t, err)
		require.NoError(t, p.Lane(0).SetBER(ber))
		cw := [][]uint16{make([]uint16, RS544N)}
		rx := [][]uint16{make([]uint16, RS544N)}
		res := make([]DecodeResult, 1)
		for range 2 * HighSERWindow {
			p.TransferCodewords(cw, rx, res)
		}
		return p.HighSER()
	}
	low := run(ber / 2)
	require.Equal(t, uint64(2), low.Windows())
	require.False(t, low.Alarm())
	require.Zero(t, low.AlarmWindows())
	high := run(ber * 2)
	require.True(t, high.Alarm())
	require.Equal(t, uint64(2), high.AlarmWindows())

	m := NewHighSERMonitor()
	m.Window = 2
	m.Threshold = 16
	m.Observe(DecodeResult{Status: DecodeUncorrectable})
	m.Observe(DecodeResult{Status: DecodeCorrected, Symbols: 1})
	require.True(t, m.Alarm(), "an uncorrectable codeword counts t+1 symbols")
}
