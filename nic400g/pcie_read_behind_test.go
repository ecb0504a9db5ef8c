package nic400g

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// TestPCIeReadBehindMatchesSearch: whenever readBehind takes a read, it
// reserves exactly what the transfer-by-transfer search does (same end,
// same busy intervals, counts and ordering state in both directions), and
// when it declines it changes nothing. The reads are mixed with posted
// writes upstream, host writes downstream and reads issued ahead of now,
// which leave gaps and later intervals for the search to find.
func TestPCIeReadBehindMatchesSearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, cpl := range []CplSplit{CplAtMPS, CplAtRCB} {
		l := newTestPCIeLink(t, func(c *PCIeConfig) { c.Completions = cpl })
		clone := func() *PCIeLink {
			c := *l
			c.up.iv = slices.Clone(l.up.iv)
			c.down.iv = slices.Clone(l.down.iv)
			return &c
		}
		var now rtlmodel.Time
		taken, declined := 0, 0
		for i := 0; i < 20000; i++ {
			now += rtlmodel.Time(rng.IntN(1_000_000) >> rng.IntN(4))
			switch rng.IntN(5) {
			case 0:
				l.PostedWrite(now, uint64(1+rng.IntN(8192)))
			case 1:
				l.HostWrite(now, now+rtlmodel.Time(rng.IntN(3))*rtlmodel.Time(rng.IntN(2_000_000)), uint64(1+rng.IntN(256)), 64)
			default:
				l.advance(now)
				start := now + rtlmodel.Time(rng.IntN(2))*rtlmodel.Time(rng.IntN(1_000_000))
				n := uint64(1 + rng.IntN(9000))
				ref, before := clone(), clone()
				got, ok := l.readBehind(start, n)
				if !ok {
					require.Equal(t, before, l, "step %d: a declined read changed the link", i)
					declined++
					l.readSearch(start, n)
					continue
				}
				taken++
				want := ref.readSearch(start, n)
				require.Equal(t, want, got, "step %d: end", i)
				require.Equal(t, ref, l, "step %d: link state", i)
			}
		}
		t.Logf("%v: %d reads behind, %d searched", cpl, taken, declined)
		require.Greater(t, taken, 2000, "%v: too few reads behind the table", cpl)
		require.Greater(t, declined, 2000, "%v: too few reads needing the search", cpl)
	}
}
