package serdes

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestLaneErrorsRandomRateAndDeterminism(t *testing.T) {
	const ber = 1e-4
	const nbits = 204_000_000 // a multiple of both chunk sizes
	run := func(seed uint64, chunk uint64) (uint64, []uint64) {
		l, err := NewLaneErrors(seed, ber)
		require.NoError(t, err)
		var first []uint64
		var hits []uint64
		for done := uint64(0); done < nbits; done += chunk {
			hits = l.Advance(chunk, hits[:0])
			for _, h := range hits {
				require.Less(t, h, chunk)
				if len(first) < 50 {
					first = append(first, done+h)
				}
			}
		}
		require.Equal(t, uint64(nbits), l.Bits())
		return l.Errors(), first
	}
	n1, f1 := run(42, 5440)
	n2, f2 := run(42, 1_000_000)
	require.Equal(t, n1, n2, "chunking does not change the errors")
	require.Equal(t, f1, f2)
	n3, _ := run(43, 5440)
	require.NotEqual(t, n1, n3)
	mean := ber * nbits
	require.InDelta(t, mean, float64(n1), 5*math.Sqrt(mean), "count within 5 sigma of %g", mean)
	t.Logf("BER %g over %d bits: %d errors (expected %g)", ber, nbits, n1, mean)

	_, err := NewLaneErrors(1, 1.5)
	require.Error(t, err)
	clean, err := NewLaneErrors(1, 0)
	require.NoError(t, err)
	require.Empty(t, clean.Advance(1<<40, nil))
}

func TestLaneErrorsBurstAndFailure(t *testing.T) {
	ge := GilbertElliott{GoodBER: 1e-7, BadBER: 0.3, GoodToBad: 1e-5, BadToGood: 0.05}
	require.NoError(t, ge.Validate())
	require.Error(t, GilbertElliott{GoodBER: 2}.Validate())
	require.Error(t, GilbertElliott{GoodToBad: 0.1}.Validate())
	l, err := NewLaneErrors(9, 0)
	require.NoError(t, err)
	require.NoError(t, l.SetBurst(ge))
	const nbits = 200_000_000
	var hits []uint64
	var last uint64
	var clustered, total uint64
	first := true
	for done := uint64(0); done < nbits; done += 4096 {
		hits = l.Advance(4096, hits[:0])
		for _, h := range hits {
			at := done + h
			if !first && at-last < 100 {
				clustered++
			}
			first = false
			last = at
			total++
		}
	}
	got := float64(total) / nbits
	want := ge.MeanBER()
	t.Logf("Gilbert-Elliott: %d errors, BER %.3g (stationary %.3g), %.1f%% within 100 bits of the previous error",
		total, got, want, 100*float64(clustered)/float64(total))
	require.InEpsilon(t, want, got, 0.15)
	// A bad spell lasts 20 bits on average and holds about 6 errors, all but
	// the first within 100 bits of the one before: about 5/6 clustered.
	require.Greater(t, float64(clustered)/float64(total), 0.7, "errors come in bursts")

	require.False(t, l.Failed())
	l.Fail()
	require.True(t, l.Failed())
	hits = l.Advance(100_000, hits[:0])
	require.InDelta(t, 50_000, len(hits), 1_000, "a failed lane delivers noise")
	l.Restore()
	require.False(t, l.Failed())
	hits = l.Advance(10_000, hits[:0])
	require.Less(t, len(hits), 5_000)
}

func TestGeometricGapEdges(t *testing.T) {
	rng := NewRNG(1)
	require.Equal(t, uint64(math.MaxUint64), geometricGap(rng, 0))
	require.Zero(t, geometricGap(rng, 1))
	var sum float64
	const n = 200_000
	for range n {
		sum += float64(geometricGap(rng, 0.01))
	}
	require.InEpsilon(t, 99.0, sum/n, 0.02, "mean gap (1-p)/p")
	require.NotEqual(t, DeriveSeed(1, 0), DeriveSeed(1, 1))
	require.NotEqual(t, DeriveSeed(1, 0), DeriveSeed(2, 0))
}

func BenchmarkLaneErrorsAdvance(b *testing.B) {
	l, err := NewLaneErrors(1, 1e-4)
	if err != nil {
		b.Fatal(err)
	}
	hits := make([]uint64, 0, 64)
	b.SetBytes(RS544CodewordBits / 8)
	b.ReportAllocs()
	for b.Loop() {
		hits = l.Advance(RS544CodewordBits, hits[:0])
	}
}
