package nic400g

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

const ns = rtlmodel.Nanosecond

func newCache(t testing.TB, sets, ways int, pol Replacement) *QPCache {
	cfg := DefaultQPCacheConfig()
	cfg.Sets, cfg.Ways, cfg.Policy = sets, ways, pol
	c, err := NewQPCache(cfg, nil, "qpc")
	require.NoError(t, err)
	return c
}

// TestQPCacheLRUKnownAnswer: one set of four ways, by hand.
func TestQPCacheLRUKnownAnswer(t *testing.T) {
	c := newCache(t, 1, 4, LRU)
	now := rtlmodel.Time(0)
	seq := []struct {
		qp  uint32
		hit bool
	}{
		{1, false}, {2, false}, {3, false}, {4, false}, // cold
		{1, true},  // order now 2 3 4 1
		{5, false}, // evicts 2 → 3 4 1 5
		{2, false}, // evicts 3 → 4 1 5 2
		{1, true},  // → 4 5 2 1
		{3, false}, // evicts 4 → 5 2 1 3
		{4, false}, // evicts 5
		{2, true}, {1, true}, {3, true}, {4, true},
	}
	for i, s := range seq {
		now += 1000 * ns // every fill is done by the next lookup
		hit, ready := c.Lookup(s.qp, now)
		assert.Equal(t, s.hit, hit, "lookup %d of QP %d", i, s.qp)
		if hit {
			assert.Equal(t, now, ready)
		} else {
			assert.Equal(t, now+750*ns, ready, "a miss costs one PCIe read round trip")
		}
	}
	st := c.Stats()
	assert.Equal(t, QPCacheStats{Hits: 6, Misses: 8, Evictions: 4}, st)
	assert.InDelta(t, 6.0/14, st.HitRate(), 1e-12)
}

// roundRobin looks up QPs 0..n-1 in turn for rounds rounds, 1 µs apart,
// and returns the hit rate of the rounds after the first.
func roundRobin(c *QPCache, n, rounds int) float64 {
	now := rtlmodel.Time(0)
	for qp := 0; qp < n; qp++ {
		now += 1000 * ns
		c.Lookup(uint32(qp), now)
	}
	before := c.Stats()
	for r := 1; r < rounds; r++ {
		for qp := 0; qp < n; qp++ {
			now += 1000 * ns
			c.Lookup(uint32(qp), now)
		}
	}
	after := c.Stats()
	return float64(after.Hits-before.Hits) / float64(after.Lookups()-before.Lookups())
}

// TestQPCacheWorkingSet: 64 sets × 4 ways = 256 lines. A round-robin
// working set of 200 QPs fits (every set holds at most 4 of them): all
// hits after the first round. 300 QPs do not: 44 sets get 5 QPs, which a
// cyclic pattern under LRU always misses, and 20 sets get 4, which always
// hit, so the hit rate is 80/300. Random replacement keeps some hits in
// the overfull sets.
func TestQPCacheWorkingSet(t *testing.T) {
	assert.Equal(t, 1.0, roundRobin(newCache(t, 64, 4, LRU), 200, 10))
	assert.InDelta(t, 80.0/300, roundRobin(newCache(t, 64, 4, LRU), 300, 10), 1e-12)
	assert.Equal(t, 1.0, roundRobin(newCache(t, 64, 4, Random), 200, 10))
	rnd := roundRobin(newCache(t, 64, 4, Random), 300, 50)
	t.Logf("300 QPs on 256 lines: LRU %.4f, random %.4f", 80.0/300, rnd)
	assert.Greater(t, rnd, 80.0/300)
	assert.Less(t, rnd, 1.0)
}

// TestQPCachePrefetch: a prefetch on the doorbell turns the lookup into a
// hit when the lookup comes at least one miss latency later, and into a
// shorter wait when it comes earlier.
func TestQPCachePrefetch(t *testing.T) {
	c := newCache(t, 16, 2, LRU)
	const door = 10_000 * ns
	require.True(t, c.Prefetch(7, door))
	assert.False(t, c.Prefetch(7, door+ns), "already filling")
	hit, ready := c.Lookup(7, door+750*ns)
	assert.True(t, hit)
	assert.Equal(t, door+750*ns, ready)

	require.True(t, c.Prefetch(8, door))
	hit, ready = c.Lookup(8, door+500*ns)
	assert.False(t, hit, "doorbell only 500 ns ahead")
	assert.Equal(t, door+750*ns, ready, "waits for the fill in flight, 250 ns instead of 750")

	hit, ready = c.Lookup(9, door)
	assert.False(t, hit)
	assert.Equal(t, door+750*ns, ready)

	st := c.Stats()
	assert.Equal(t, QPCacheStats{Hits: 1, Misses: 1, Merged: 1, Prefetches: 2, PrefetchUsed: 2}, st)

	// the round-robin that misses every time under LRU hits every time
	// when each doorbell leads its lookup by the miss latency
	c2 := newCache(t, 64, 4, LRU)
	now := rtlmodel.Time(0)
	const n = 300
	for r := 0; r < 5; r++ {
		for qp := uint32(0); qp < n; qp++ {
			now += 1000 * ns
			c2.Prefetch(qp, now)
			c2.Lookup(qp, now+750*ns)
		}
	}
	assert.Equal(t, 1.0, c2.Stats().HitRate())
}

func TestQPCacheStatsRegistry(t *testing.T) {
	reg := rtlmodel.NewRegistry()
	cfg := DefaultQPCacheConfig()
	c, err := NewQPCache(cfg, reg, "nic0/qpc")
	require.NoError(t, err)
	c.Lookup(1, 0)
	c.Lookup(1, 10_000*ns)
	m, ok := reg.Lookup("nic0/qpc/hits")
	require.True(t, ok)
	assert.Equal(t, uint64(1), m.(*rtlmodel.Counter).Value())
	_, err = NewQPCache(QPCacheConfig{Sets: 0, Ways: 4}, nil, "x")
	assert.Error(t, err)
	c.Invalidate(1)
	assert.False(t, c.Contains(1))
}

func TestQPStoreMakesThePagesOfTheQPsAskedFor(t *testing.T) {
	s, err := NewQPStore(1000, DefaultHostContextBytes)
	require.NoError(t, err)
	per := uint64(s.ModelBytesPerQP())
	assert.Equal(t, uint64(0), s.HeldBytes(), "nothing asked for yet")
	assert.Equal(t, 1000*per, s.ModelBytes(), "every QP once asked for")
	assert.Equal(t, uint64(1000*DefaultHostContextBytes), s.HostBytes())

	c := s.Context(5)
	assert.Equal(t, QPContext{Active: NoSlot, LogMTU: 12}, *c, "reset and idle")
	c.SendPSN, c.State = 77, QPReadyToSend
	assert.Equal(t, qpPageContexts*per, s.HeldBytes())
	last := s.Context(999) // on the last page, which holds only the QPs below 1000
	assert.Equal(t, QPContext{Active: NoSlot, LogMTU: 12}, *last)
	held := uint64(qpPageContexts+1000%qpPageContexts) * per
	assert.Equal(t, held, s.HeldBytes())
	again := s.Context(5)
	assert.Same(t, c, again, "a context stays where it is")
	assert.Equal(t, PSN(77), again.SendPSN)
	assert.Equal(t, QPReadyToSend, again.State)
	s.Context(qpPageContexts - 1)
	assert.Equal(t, held, s.HeldBytes(), "on QP 5's page")
}

// TestQPStoreSize reports the model memory of 850k QPs.
func TestQPStoreSize(t *testing.T) {
	s, err := NewQPStore(DefaultQPCount, DefaultHostContextBytes)
	require.NoError(t, err)
	per := s.ModelBytesPerQP()
	t.Logf("%d QPs: %d B of model memory per idle QP, %.1f MB in all; modelled host memory %.1f MB (%d B contexts)",
		s.Len(), per, float64(s.ModelBytes())/1e6, float64(s.HostBytes())/1e6, s.HostContextBytes())
	assert.LessOrEqual(t, per, 64)
	assert.Equal(t, uint64(217_600_000), s.HostBytes(), "FACTS 5.1: 850k × 256 B = 217.6 MB")

	slab, err := NewActiveSlab[ReactionPoint](4)
	require.NoError(t, err)
	p := PaperParams(400e9)
	rp, ok := slab.Activate(s, 849_999)
	require.True(t, ok)
	rp.Init(&p)
	again, _ := slab.Activate(s, 849_999)
	assert.Same(t, rp, again)
	assert.Same(t, rp, slab.State(s, 849_999))
	assert.Nil(t, slab.State(s, 3))
	for q := uint32(0); q < 3; q++ {
		_, ok = slab.Activate(s, q)
		require.True(t, ok)
	}
	_, ok = slab.Activate(s, 10)
	assert.False(t, ok, "slab full")
	slab.Release(s, 1)
	assert.Equal(t, NoSlot, s.Context(1).Active)
	_, ok = slab.Activate(s, 10)
	assert.True(t, ok)
	assert.Equal(t, 4, slab.InUse())
	t.Logf("active DCQCN state: %d B per active QP", slab.BytesPerSlot())
}

// BenchmarkQPCacheLookup: random QPs out of 850k on the default cache,
// half of them prefetched.
func BenchmarkQPCacheLookup(b *testing.B) {
	c := newCache(b, 1024, 8, LRU)
	rng := rtlmodel.NewRNG(1, "bench")
	b.ReportAllocs()
	now := rtlmodel.Time(0)
	for b.Loop() {
		now += 10 * ns
		qp := uint32(rng.Uint64n(DefaultQPCount))
		if qp&1 == 0 {
			c.Prefetch(qp, now)
		}
		c.Lookup(qp, now)
	}
}

// BenchmarkQPCacheLookupHot: lookups of a working set that fits.
func BenchmarkQPCacheLookupHot(b *testing.B) {
	c := newCache(b, 1024, 8, Random)
	b.ReportAllocs()
	now := rtlmodel.Time(0)
	var qp uint32
	for b.Loop() {
		now += 10 * ns
		qp = (qp + 1) & 4095
		c.Lookup(qp, now)
	}
}

// TestQPCacheGivesASetLinesAtItsFirstFill: an idle cache holds no lines;
// each set gets its ways at its first fill, a lookup that misses or a
// prefetch, and not on Contains or Invalidate. The lines of a set filled
// later come after those of earlier sets, and every set keeps its own.
func TestQPCacheGivesASetLinesAtItsFirstFill(t *testing.T) {
	c := newCache(t, 1024, 8, LRU)
	assert.Empty(t, c.lines)
	assert.False(t, c.Contains(5))
	c.Invalidate(5)
	assert.Empty(t, c.lines, "neither Contains nor Invalidate fills")

	c.Lookup(5, 0)
	c.Prefetch(5+1024, 0) // the same set
	assert.Len(t, c.lines, 8)
	c.Prefetch(7, 0)
	c.Lookup(1023, 0)
	assert.Len(t, c.lines, 24, "three sets touched, 8 ways each")
	for _, qp := range []uint32{5, 5 + 1024, 7, 1023} {
		assert.True(t, c.Contains(qp), "QP %d", qp)
	}
	assert.False(t, c.Contains(7+1024))
	hit, _ := c.Lookup(5+1024, 10_000*ns)
	assert.True(t, hit, "the second set's growth kept the first set's lines")
	c.Invalidate(7)
	assert.False(t, c.Contains(7))
	assert.True(t, c.Contains(1023))
}
