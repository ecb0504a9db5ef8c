package mesh

import (
	"crypto/sha256"
	"encoding/hex"
	"runtime"
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// runHash builds the default mesh with the given engine options, runs it to
// quiescence and returns the SHA-256 of its full link trace and of its
// stats JSON.
func runHash(t *testing.T, opts rtlmodel.Options) (trace, stats string, transfers uint64) {
	t.Helper()
	cfg := DefaultConfig()
	cfg.Traffic.Bursts = 6
	cfg.Engine = opts
	cfg.Engine.WatchdogCycles = 100000
	m, err := Build(cfg)
	require.NoError(t, err)
	th := sha256.New()
	sink := rtlmodel.NewTraceSink(th)
	sink.Attach(m.Engine)
	require.NoError(t, m.Engine.Run(rtlmodel.Forever))
	m.Engine.Finish()
	require.NoError(t, sink.Flush())
	sh := sha256.New()
	require.NoError(t, m.Engine.Stats().WriteJSON(sh))
	sent, recv := m.Totals()
	require.Equal(t, sent, recv, "every injected flit is delivered")
	require.Greater(t, sent, uint64(1000))
	return hex.EncodeToString(th.Sum(nil)), hex.EncodeToString(sh.Sum(nil)), sink.Count()
}

func TestTraceIdenticalAcrossModes(t *testing.T) {
	base, baseStats, n := runHash(t, rtlmodel.Options{Seed: 7})
	t.Logf("trace sha256 %s over %d transfers", base, n)

	tick, tickStats, _ := runHash(t, rtlmodel.Options{Seed: 7, AlwaysTick: true})
	require.Equal(t, base, tick, "idle skipping and always-tick give the same trace")
	require.Equal(t, baseStats, tickStats, "and the same counters")

	for _, s := range []uint64{1, 2, 3} {
		sh, shStats, _ := runHash(t, rtlmodel.Options{Seed: 7, ShuffleEval: true, ShuffleSeed: s})
		require.Equal(t, base, sh, "shuffled Eval order %d gives the same trace", s)
		require.Equal(t, baseStats, shStats)
	}
	both, _, _ := runHash(t, rtlmodel.Options{Seed: 7, ShuffleEval: true, ShuffleSeed: 9, AlwaysTick: true})
	require.Equal(t, base, both)

	again, _, _ := runHash(t, rtlmodel.Options{Seed: 7})
	require.Equal(t, base, again, "two runs with one seed")

	prev := runtime.GOMAXPROCS(1)
	one, _, _ := runHash(t, rtlmodel.Options{Seed: 7})
	runtime.GOMAXPROCS(2)
	two, _, _ := runHash(t, rtlmodel.Options{Seed: 7})
	runtime.GOMAXPROCS(prev)
	require.Equal(t, base, one, "GOMAXPROCS 1")
	require.Equal(t, base, two, "GOMAXPROCS 2")

	other, _, _ := runHash(t, rtlmodel.Options{Seed: 8})
	require.NotEqual(t, base, other, "another seed gives another trace")
}

func TestMeshHasEnoughComponentsAndTwoDomains(t *testing.T) {
	m, err := Build(DefaultConfig())
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(m.Routers)+len(m.Endpoints), 64)
	require.Len(t, m.Engine.Domains(), 2)
}
