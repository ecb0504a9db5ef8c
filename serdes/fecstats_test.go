package serdes

import (
	"math"
	"math/big"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/stat/distuv"
)

// wilson returns the Wilson score interval for k successes in n trials at
// two-sided confidence 1-alpha, the normal quantile taken from gonum.
func wilson(k, n uint64, alpha float64) (lo, hi float64) {
	z := distuv.UnitNormal.Quantile(1 - alpha/2)
	nf := float64(n)
	p := float64(k) / nf
	den := 1 + z*z/nf
	mid := (p + z*z/(2*nf)) / den
	half := z / den * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf))
	return mid - half, mid + half
}

// exactTail computes P(X > t), X ~ Binomial(n, p), in 256-bit floating
// point from exact binomial coefficients.
func exactTail(n, t int, p float64) float64 {
	const prec = 256
	pf := new(big.Float).SetPrec(prec).SetFloat64(p)
	q := new(big.Float).SetPrec(prec).Sub(big.NewFloat(1).SetPrec(prec), pf)
	sum := new(big.Float).SetPrec(prec)
	for k := t + 1; k <= n; k++ {
		c := new(big.Float).SetPrec(prec).SetInt(new(big.Int).Binomial(int64(n), int64(k)))
		for range k {
			c.Mul(c, pf)
		}
		for range n - k {
			c.Mul(c, q)
		}
		sum.Add(sum, c)
	}
	f, _ := sum.Float64()
	return f
}

func TestBinomialTailPrecision(t *testing.T) {
	for _, ber := range []float64{1e-5, 1e-4, DesignPreFECBER, 1e-3, 2e-3, 1e-2} {
		got := CodewordFailureProb(ber)
		want := exactTail(RS544N, RS544T, SymbolErrorProb(ber))
		require.InEpsilon(t, want, got, 1e-9, "BER %g", ber)
	}
	require.InEpsilon(t, 1-math.Pow(1-1e-3, 10), SymbolErrorProb(1e-3), 1e-12)
	require.Zero(t, BinomialTail(544, 15, 0))
	require.Equal(t, 1.0, BinomialTail(544, 15, 1))
	require.Zero(t, BinomialTail(10, 10, 0.5))
	p := DesignPointCodewordFailure()
	t.Logf("post-FEC codeword failure probability at the design point BER %g: %.6g", DesignPreFECBER, p)
	require.InEpsilon(t, 8.1516e-13, p, 1e-4)
	require.Less(t, p, 1e-12)
}

// runCodecMC sends codewords through the real codec on a 400G group with a
// two-codeword interleave, every lane at the same independent BER, split
// into shards run in parallel and merged in shard order (so the result does
// not depend on scheduling).
func runCodecMC(t *testing.T, ber float64, shards, perShard int, seed uint64) FECCounters {
	t.Helper()
	results := make([]FECCounters, shards)
	var wg sync.WaitGroup
	for sh := range shards {
		wg.Go(func() {
			p, err := NewCodecPath(Port400G, InterleaveTwo, DeriveSeed(seed, uint64(sh)))
			require.NoError(t, err)
			for i := range Port400G.Lanes() {
				require.NoError(t, p.Lane(i).SetBER(ber))
			}
			rng := NewRNG(DeriveSeed(seed^0xc0dec, uint64(sh)))
			msg := make([]uint16, RS544K)
			cw := [][]uint16{make([]uint16, RS544N), make([]uint16, RS544N)}
			rx := [][]uint16{make([]uint16, RS544N), make([]uint16, RS544N)}
			for _, c := range cw {
				randomMessage(rng, msg)
				RS544().Encode(msg, c)
			}
			res := make([]DecodeResult, 2)
			for range perShard / 2 {
				p.TransferCodewords(cw, rx, res)
			}
			results[sh] = p.Counters()
		})
	}
	wg.Wait()
	var total FECCounters
	for _, r := range results {
		total.Add(r)
	}
	return total
}

// The post-FEC codeword error ratio measured through the real codec agrees
// with the binomial formula within the Monte Carlo estimate's 99.9% Wilson
// interval.
func TestMonteCarloCodecMatchesBinomial(t *testing.T) {
	for _, c := range []struct {
		ber      float64
		shards   int
		perShard int
	}{
		{2e-3, 8, 4_000},   // p ~ 0.079: ~2500 losses
		{1e-3, 16, 25_000}, // p ~ 1.5e-4: ~61 losses
	} {
		got := runCodecMC(t, c.ber, c.shards, c.perShard, 0xfec)
		n := got.Codewords
		require.Equal(t, uint64(c.shards*c.perShard), n)
		lo, hi := wilson(got.ErroredCodewords, n, 1e-3)
		want := CodewordFailureProb(c.ber)
		t.Logf("BER %g: %d codewords, %d lost (%d flagged, %d miscorrected): CER %.4g, 99.9%% CI [%.4g, %.4g]; formula %.4g; measured pre-FEC BER %.4g, post-FEC BER %.3g",
			c.ber, n, got.ErroredCodewords, got.UncorrectableCodewords, got.MiscorrectedCodewords,
			got.CodewordErrorRatio(), lo, hi, want, got.PreFECBER(), got.PostFECBER())
		require.GreaterOrEqual(t, want, lo)
		require.LessOrEqual(t, want, hi)
		require.InEpsilon(t, c.ber, got.PreFECBER(), 0.05)
		require.Equal(t, got.ErroredCodewords, got.UncorrectableCodewords+got.MiscorrectedCodewords)
	}
}

// The statistical path agrees with the formula it is built on and with the
// codec path.
func TestStatisticalPathMatchesCodec(t *testing.T) {
	for _, ber := range []float64{1e-3, 2e-3, DesignPreFECBER * 4} {
		s, err := NewFailureSamplerBER(7, ber)
		require.NoError(t, err)
		const n = 100_000_000
		lost := s.Failures(n)
		require.Equal(t, uint64(n), s.Codewords())
		require.Equal(t, lost, s.Lost())
		lo, hi := wilson(lost, n, 1e-3)
		t.Logf("sampler at BER %g: %d of %d codewords lost, 99.9%% CI [%.4g, %.4g], formula %.4g", ber, lost, uint64(n), lo, hi, s.Prob())
		require.GreaterOrEqual(t, s.Prob(), lo)
		require.LessOrEqual(t, s.Prob(), hi)
	}

	// Same number of codewords through the codec and through the sampler at
	// 2e-3: the two loss counts pass a two-proportion z-test at 99.9%.
	const n = 16_000
	codec := runCodecMC(t, 2e-3, 4, n/4, 0x5a)
	s, err := NewFailureSamplerBER(0x5a, 2e-3)
	require.NoError(t, err)
	var stat uint64
	for range n {
		if s.Next() {
			stat++
		}
	}
	p1, p2 := float64(codec.ErroredCodewords)/n, float64(stat)/n
	pool := (p1 + p2) / 2
	z := (p1 - p2) / math.Sqrt(pool*(1-pool)*2/n)
	t.Logf("BER 2e-3, %d codewords: codec lost %d, sampler lost %d, z = %.2f", n, codec.ErroredCodewords, stat, z)
	require.Less(t, math.Abs(z), distuv.UnitNormal.Quantile(1-1e-3/2))

	// A frame spanning k codewords is hit with probability 1-(1-p)^k.
	fs, err := NewFailureSampler(3, 0.01)
	require.NoError(t, err)
	var hit uint64
	const frames = 1_000_000
	for range frames {
		if fs.FrameHit(3) {
			hit++
		}
	}
	lo, hi := wilson(hit, frames, 1e-3)
	want := 1 - math.Pow(0.99, 3)
	require.GreaterOrEqual(t, want, lo)
	require.LessOrEqual(t, want, hi)
	_, err = NewFailureSampler(1, -1)
	require.Error(t, err)
	_, err = NewFailureSamplerBER(1, 2)
	require.Error(t, err)

	require.Equal(t, uint64(1), CodewordsSpanned(0, RS544MessageBits))
	require.Equal(t, uint64(2), CodewordsSpanned(1, RS544MessageBits))
	require.Equal(t, uint64(0), CodewordsSpanned(5, 0))
	require.Equal(t, uint64(7), CodewordsSpanned(0, 4150*8*257/256))
}

func BenchmarkFailureSamplerFrameHit(b *testing.B) {
	s, err := NewFailureSamplerBER(1, DesignPreFECBER*4)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		s.FrameHit(7)
	}
}
