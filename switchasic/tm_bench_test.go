package switchasic

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// One Admit and its Release on the default 128-port configuration, with
// queues held part-full so WRED draws and the dynamic threshold are
// evaluated; observed, so the counter path is included.
func BenchmarkTMAdmitRelease(b *testing.B) {
	for _, bc := range []struct {
		name string
		edit func(*TMConfig)
		cls  int
	}{
		{"lossy-ecn", nil, 0},
		{"lossless-pfc", func(c *TMConfig) { c.PFC.Enabled[3] = true }, 3},
	} {
		b.Run(bc.name, func(b *testing.B) {
			cfg := DefaultTMConfig(128)
			if bc.edit != nil {
				bc.edit(&cfg)
			}
			tm, err := NewTrafficManager(cfg, 1)
			require.NoError(b, err)
			tm.Observe(rtlmodel.NewRegistry(), "tm")
			// 32 egress queues hold 2 MB each: inside the marking band
			for e := range 32 {
				require.NotEqual(b, Drop, tm.Admit(e, e, bc.cls, 2000000, false).Action)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				in, eg := i&127, (i*7)&31
				v := tm.Admit(in, eg, bc.cls, 4200, true)
				if v.Action != Drop {
					tm.Release(in, eg, v.Class, v.Bytes)
				}
			}
		})
	}
}

func BenchmarkLFSRDraw16(b *testing.B) {
	l := NewLFSR32(1)
	b.ReportAllocs()
	var x uint16
	for range b.N {
		x ^= l.Draw16()
	}
	_ = x
}

func BenchmarkWREDProbability(b *testing.B) {
	c := NewWREDCurve(DefaultWREDConfig())
	b.ReportAllocs()
	var s uint32
	for i := range b.N {
		s += c.Probability(uint64(i) & (1<<23 - 1))
	}
	_ = s
}

// The pair must not allocate.
func TestTMAdmitReleaseAllocatesNothing(t *testing.T) {
	cfg := DefaultTMConfig(8)
	cfg.PFC.Enabled[3] = true
	cfg.Trim.Enabled = true
	tm, err := NewTrafficManager(cfg, 1)
	require.NoError(t, err)
	tm.Observe(rtlmodel.NewRegistry(), "tm")
	allocs := testing.AllocsPerRun(1000, func() {
		for c := range 8 {
			v := tm.Admit(1, 2, c, 1500, true)
			tm.Release(1, 2, v.Class, v.Bytes)
		}
	})
	require.Zero(t, allocs)
}
