package switchasic

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestWREDCurveShape(t *testing.T) {
	w := WREDConfig{Enabled: true, KminBytes: 100000, KmaxBytes: 400000, PmaxQ: 13107}
	c := NewWREDCurve(w)
	require.Equal(t, (uint64(13107)<<48)/300000+1, c.Slope())
	for _, tc := range []struct {
		name  string
		depth uint64
		want  uint32
	}{
		{"empty", 0, 0},
		{"at Kmin", 100000, 0},
		{"one byte past Kmin", 100001, 0},
		{"quarter", 175000, 3276},        // 13107/4 = 3276.75
		{"half", 250000, 6553},           // 6553.5
		{"three quarters", 325000, 9830}, // 9830.25
		{"one byte below Kmax", 399999, 13106},
		{"at Kmax", 400000, ProbOne},
		{"far above", 1 << 40, ProbOne},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, c.Probability(tc.depth))
		})
	}
	// With Kmax − Kmin ≤ 2^24 the multiply-shift equals the exact floor
	// at every depth.
	for d := w.KminBytes + 1; d < w.KmaxBytes; d++ {
		exact := uint64(w.PmaxQ) * (d - w.KminBytes) / (w.KmaxBytes - w.KminBytes)
		if uint64(c.Probability(d)) != exact {
			require.Equal(t, exact, uint64(c.Probability(d)), "depth %d", d)
		}
	}
	// The default curve (R = 4.8 MB), sampled, and a wide one (R > 2^24),
	// within one unit above the floor.
	for _, w := range []WREDConfig{DefaultWREDConfig(), {Enabled: true, KminBytes: 0, KmaxBytes: 1 << 40, PmaxQ: 65535}} {
		c := NewWREDCurve(w)
		r := w.KmaxBytes - w.KminBytes
		for d := w.KminBytes + 1; d < w.KmaxBytes; d += r/100003 + 1 {
			exact := uint64(w.PmaxQ) * (d - w.KminBytes) / r
			p := uint64(c.Probability(d))
			if r <= 1<<24 {
				require.Equal(t, exact, p, "depth %d", d)
			} else {
				require.True(t, p == exact || p == exact+1, "depth %d: %d vs %d", d, p, exact)
			}
		}
	}
}

func TestWREDCurveMarkAndDisabled(t *testing.T) {
	c := NewWREDCurve(WREDConfig{Enabled: true, KminBytes: 10, KmaxBytes: 20, PmaxQ: 0x8000})
	p := c.Probability(15) // 0x4000
	require.Equal(t, uint32(0x4000), p)
	require.True(t, c.Mark(15, 0x3FFF))
	require.False(t, c.Mark(15, 0x4000))
	require.True(t, c.Mark(20, 0xFFFF), "above Kmax every draw marks")
	require.False(t, c.Mark(10, 0), "at Kmin no draw marks")

	off := NewWREDCurve(WREDConfig{KminBytes: 10, KmaxBytes: 20, PmaxQ: 0xFFFF})
	require.False(t, off.Enabled())
	require.Zero(t, off.Probability(1<<30))

	require.ErrorContains(t, WREDConfig{Enabled: true, KminBytes: 20, KmaxBytes: 20}.Validate(), "KmaxBytes")
	require.ErrorContains(t, WREDConfig{Enabled: true, KmaxBytes: 1 << 48}.Validate(), "2^48")
	require.NoError(t, WREDConfig{KminBytes: 20, KmaxBytes: 20}.Validate())
}
