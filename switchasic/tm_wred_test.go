package switchasic

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/stat/distuv"
)

// The marking fraction the traffic manager produces at fixed queue depths
// matches the configured WRED curve (FACTS 2.1): 0 at and below Kmin, all
// at and above Kmax, and between them a binomial count whose two-sided
// p-value under the curve's probability is not extreme.
func TestWREDMarkingFractionMatchesCurve(t *testing.T) {
	const (
		kmin, kmax = 100000, 400000
		pmaxQ      = 13107 // 0.2
		draws      = 40000
		pkt        = 1000
		alpha      = 1e-4 // per depth; 9 depths, deterministic seed
	)
	pmax := float64(pmaxQ) / 65536
	for i, tc := range []struct {
		name  string
		depth uint64
	}{
		{"empty", 0},
		{"at Kmin", kmin},
		{"10%", kmin + 30000},
		{"25%", kmin + 75000},
		{"50%", kmin + 150000},
		{"75%", kmin + 225000},
		{"just below Kmax", kmax - 1000},
		{"at Kmax", kmax},
		{"above Kmax", 2 * kmax},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := DefaultTMConfig(4)
			for i := range cfg.WRED {
				cfg.WRED[i].Enabled = false
			}
			cfg.WRED[0] = WREDConfig{Enabled: true, KminBytes: kmin, KmaxBytes: kmax, PmaxQ: pmaxQ}
			// a seed per depth, so the depths see independent draws
			tm, err := NewTrafficManager(cfg, 2026+uint64(i))
			require.NoError(t, err)
			// hold the queue (1, 0) at the depth with packets that are not
			// ECN-capable (they take no draw and are never marked)
			for left := tc.depth; left > 0; {
				b := min(left, 1500)
				v := tm.Admit(0, 1, 0, int(b), false)
				require.Equal(t, Enqueue, v.Action)
				require.False(t, v.MarkCE)
				left -= b
			}
			require.Equal(t, tc.depth, tm.QueueBytes(1, 0))

			marks := 0
			for range draws {
				v := tm.Admit(2, 1, 0, pkt, true)
				require.Equal(t, Enqueue, v.Action)
				if v.MarkCE {
					marks++
				}
				tm.Release(2, 1, 0, pkt)
			}
			require.Equal(t, uint64(marks), tm.Stats().Marked)

			// the configured (real-valued) curve and its fixed-point form
			var want float64
			switch {
			case tc.depth <= kmin:
				want = 0
			case tc.depth >= kmax:
				want = 1
			default:
				want = pmax * float64(tc.depth-kmin) / float64(kmax-kmin)
			}
			p := float64(tm.Curve(0).Probability(tc.depth)) / 65536
			require.InDelta(t, want, p, 1.0/65536)
			frac := float64(marks) / draws
			t.Logf("depth %7d B: curve %.5f, fixed point %.5f, measured %.5f (%d of %d)", tc.depth, want, p, frac, marks, draws)
			if p == 0 || p == 1 {
				require.Equal(t, p, frac)
				return
			}
			b := distuv.Binomial{N: draws, P: p}
			pval := 2 * math.Min(b.CDF(float64(marks)), 1-b.CDF(float64(marks-1)))
			require.Greater(t, pval, alpha, "binomial two-sided p-value")
			// and the normal bound it implies, for the record
			z := distuv.UnitNormal.Quantile(1 - alpha/2)
			require.InDelta(t, p, frac, z*math.Sqrt(p*(1-p)/draws))
		})
	}
}

// Packets that are not ECN-capable are never marked, whatever the depth,
// and take no draw.
func TestWREDOnlyECNCapableMarked(t *testing.T) {
	cfg := DefaultTMConfig(2)
	cfg.WRED[0] = WREDConfig{Enabled: true, KminBytes: 0, KmaxBytes: 1000, PmaxQ: 65535}
	tm, err := NewTrafficManager(cfg, 1)
	require.NoError(t, err)
	for range 100 {
		require.False(t, tm.Admit(0, 1, 0, 1500, false).MarkCE)
	}
	require.Zero(t, tm.Stats().Marked)
	require.True(t, tm.Admit(0, 1, 0, 1500, true).MarkCE)
	// a disabled class never marks
	cfg.WRED[1].Enabled = false
	tm, err = NewTrafficManager(cfg, 1)
	require.NoError(t, err)
	for range 100 {
		require.False(t, tm.Admit(0, 1, 1, 1500, true).MarkCE)
	}
}

// Same seed, same marks; another seed, other marks.
func TestWREDDeterministicPerSeed(t *testing.T) {
	run := func(seed uint64) []bool {
		cfg := DefaultTMConfig(2)
		cfg.WRED[0] = WREDConfig{Enabled: true, KminBytes: 0, KmaxBytes: 1 << 20, PmaxQ: 32768}
		tm, err := NewTrafficManager(cfg, seed)
		require.NoError(t, err)
		tm.Admit(0, 1, 0, 1<<19, false) // half way: p = 1/4
		out := make([]bool, 256)
		for i := range out {
			out[i] = tm.Admit(0, 1, 0, 64, true).MarkCE
			tm.Release(0, 1, 0, 64)
		}
		return out
	}
	require.Equal(t, run(7), run(7))
	require.NotEqual(t, run(7), run(8))
}
