package rtlmodel

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestTimeMeterCountsRefreshedAndLiftedPauses(t *testing.T) {
	var m TimeMeter
	m.Set(100, 200) // paused 100..200
	m.Settle(150)
	require.Equal(t, uint64(50), m.Counter().Value(), "the open part up to the settle")
	m.Set(180, 300) // refreshed before it ended: one pause 100..300
	m.Settle(400)
	require.Equal(t, uint64(200), m.Counter().Value())
	m.Set(500, 600) // a new pause, lifted at 520 by quanta 0
	m.Set(520, 520)
	m.Settle(700)
	require.Equal(t, uint64(220), m.Counter().Value())
	m.Set(800, 900) // expired unseen, then a pause at 1000
	m.Set(1000, 1010)
	m.Settle(1010)
	require.Equal(t, uint64(330), m.Counter().Value())
	m.Settle(2000)
	require.Equal(t, uint64(330), m.Counter().Value(), "a settle after the end adds nothing")
}

// The meter against a reference that marks every picosecond paused, over
// random settings and settles.
func TestTimeMeterAgreesWithEveryPicosecondMarked(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for trial := 0; trial < 200; trial++ {
		const span = 2000
		paused := make([]bool, span)
		var m TimeMeter
		until := Time(0)
		now := Time(0)
		for now < span-100 {
			now += Time(rng.IntN(60))
			if rng.IntN(3) == 0 {
				m.Settle(now)
				continue
			}
			u := now + Time(rng.IntN(120))
			if rng.IntN(5) == 0 {
				u = now // released at once
			}
			m.Set(now, u)
			until = u
			for ps := now; ps < min(until, span); ps++ {
				paused[ps] = true
			}
			// a later setting replaces what was marked after it
			for ps := until; ps < span; ps++ {
				paused[ps] = false
			}
		}
		m.Settle(span)
		want := uint64(0)
		for _, p := range paused {
			if p {
				want++
			}
		}
		require.Equal(t, want, m.Counter().Value(), "trial %d", trial)
	}
}
