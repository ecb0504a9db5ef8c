package nic400g

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// Replacement is the victim choice of a QPCache set.
type Replacement uint8

const (
	// LRU evicts the least recently used way (exact LRU by use stamp).
	LRU Replacement = iota
	// Random evicts a uniformly random way, drawn from the cache's own
	// RNG stream.
	Random
)

// String names the policy.
func (r Replacement) String() string {
	switch r {
	case LRU:
		return "lru"
	case Random:
		return "random"
	}
	return fmt.Sprintf("Replacement(%d)", uint8(r))
}

// QPCacheConfig sizes the on-chip QP context cache (FACTS 5.1: contexts
// cannot fit on chip, so a cache sits in front of the host-memory store).
type QPCacheConfig struct {
	// Sets and Ways give the geometry; QP q maps to set q mod Sets.
	Sets, Ways int
	// Policy is the replacement policy.
	Policy Replacement
	// MissLatency is the time from a miss (or prefetch) to the context
	// being on chip: one PCIe read round trip, 0.5–1.0 µs; the model uses
	// a configurable 600–900 ns (FACTS 5.1, E). Default 750 ns.
	MissLatency rtlmodel.Time
	// HitLatency is added to the lookup time on a hit. Default 0: the
	// lookup stage's own latency belongs to the pipeline that calls it.
	HitLatency rtlmodel.Time
	// Seed and Name derive the RNG stream of the Random policy.
	Seed uint64
	Name string
}

// DefaultQPCacheConfig returns 1024 sets × 8 ways (8192 contexts, 2 MiB
// of 256-B contexts: FACTS 5.1 puts on-chip SRAM budgets at single- or
// double-digit MB, E), LRU, 750 ns miss latency.
func DefaultQPCacheConfig() QPCacheConfig {
	return QPCacheConfig{Sets: 1024, Ways: 8, Policy: LRU, MissLatency: 750 * rtlmodel.Nanosecond, Name: "qpc"}
}

// QPCache is the on-chip QP context cache (FACTS 5.1): Sets × Ways
// lines, each holding one QP's context and the time its fill from host
// memory completes. Lookup reports a hit when the context is on chip at
// the lookup time; otherwise it allocates a line (unless a fill for that
// QP is already in flight, which the lookup waits for) and reports when
// the context will be ready. Prefetch starts a fill early, on a doorbell,
// so that a lookup one miss latency later hits (prefetching such NIC
// resources is the technique of [R48b]). The number of fills in flight is
// not limited here.
//
// A set's lines are allocated at its first fill: a NIC of a large fabric
// uses a few of its 1024 sets, and the model of a thousand NICs would
// otherwise hold 170 KB of empty lines for each. Once a set has its
// lines, Lookup and Prefetch on it never allocate.
type QPCache struct {
	cfg   QPCacheConfig
	sets  uint32
	ways  int
	set   []int32  // 1 + index in lines of a set's first way; 0 = no lines yet
	lines []qpLine // the sets' lines, Ways at a time, in the order of first fill
	clock uint64
	rng   *rtlmodel.RNG

	hits, misses, merged, evictions, prefetches, prefUseful *rtlmodel.Counter
}

// qpLine is one way of a set.
type qpLine struct {
	ready rtlmodel.Time // fill completion time
	stamp uint64        // last use, for LRU
	tag   uint32        // QP + 1; 0 = invalid
	pref  bool          // filled by a prefetch and not yet looked up
}

// NewQPCache returns an empty cache. Its counters are registered in reg
// under prefix (prefix + "/hits" and so on); a nil reg keeps them in a
// private registry.
func NewQPCache(cfg QPCacheConfig, reg *rtlmodel.Registry, prefix string) (*QPCache, error) {
	if cfg.Sets <= 0 || cfg.Ways <= 0 || cfg.Sets*cfg.Ways > 1<<24 {
		return nil, fmt.Errorf("qp cache: %d sets × %d ways; both positive, at most 2^24 lines", cfg.Sets, cfg.Ways)
	}
	if cfg.Policy != LRU && cfg.Policy != Random {
		return nil, fmt.Errorf("qp cache: unknown replacement policy %d", cfg.Policy)
	}
	if reg == nil {
		reg = rtlmodel.NewRegistry()
	}
	c := &QPCache{
		cfg: cfg, sets: uint32(cfg.Sets), ways: cfg.Ways,
		set:        make([]int32, cfg.Sets),
		rng:        rtlmodel.NewRNG(cfg.Seed, cfg.Name),
		hits:       reg.Counter(prefix+"/hits", "lookups", "QP context lookups that found the context on chip"),
		misses:     reg.Counter(prefix+"/misses", "lookups", "QP context lookups that started a fill from host memory"),
		merged:     reg.Counter(prefix+"/merged", "lookups", "QP context lookups that waited for a fill already in flight"),
		evictions:  reg.Counter(prefix+"/evictions", "lines", "valid lines replaced by a fill"),
		prefetches: reg.Counter(prefix+"/prefetches", "fills", "fills started by a prefetch"),
		prefUseful: reg.Counter(prefix+"/prefetch_used", "lines", "prefetched lines later looked up"),
	}
	return c, nil
}

// Config returns the configuration.
func (c *QPCache) Config() QPCacheConfig { return c.cfg }

// setLines returns the lines of qp's set, nil when the set has none yet.
func (c *QPCache) setLines(qp uint32) []qpLine {
	first := c.set[qp%c.sets]
	if first == 0 {
		return nil
	}
	return c.lines[first-1 : int(first)-1+c.ways : int(first)-1+c.ways]
}

// find returns the line of qp in its set's lines, or nil.
func find(lines []qpLine, qp uint32) *qpLine {
	key := qp + 1
	for w := range lines {
		if lines[w].tag == key {
			return &lines[w]
		}
	}
	return nil
}

// fill allocates a line for qp, ready at ready, giving its set lines
// if it has none.
func (c *QPCache) fill(qp uint32, ready rtlmodel.Time) *qpLine {
	lines := c.setLines(qp)
	if lines == nil {
		first := len(c.lines)
		c.lines = append(c.lines, make([]qpLine, c.ways)...)
		c.set[qp%c.sets] = int32(first + 1)
		lines = c.lines[first : first+c.ways : first+c.ways]
	}
	victim := -1
	for w := range lines {
		if lines[w].tag == 0 {
			victim = w
			break
		}
	}
	if victim < 0 {
		c.evictions.Inc()
		if c.cfg.Policy == Random {
			victim = c.rng.Intn(c.ways)
		} else {
			victim = 0
			for w := 1; w < len(lines); w++ {
				if lines[w].stamp < lines[victim].stamp {
					victim = w
				}
			}
		}
	}
	l := &lines[victim]
	l.tag, l.ready, l.pref = qp+1, ready, false
	return l
}

// Lookup looks up the context of qp at now. It returns whether the
// context is on chip and the time it is ready for use: now + HitLatency
// on a hit, the completion of the fill otherwise.
func (c *QPCache) Lookup(qp uint32, now rtlmodel.Time) (hit bool, ready rtlmodel.Time) {
	c.clock++
	l := find(c.setLines(qp), qp)
	if l == nil {
		c.misses.Inc()
		l = c.fill(qp, now+c.cfg.MissLatency)
		l.stamp = c.clock
		return false, l.ready
	}
	l.stamp = c.clock
	if l.pref {
		l.pref = false
		c.prefUseful.Inc()
	}
	if r := l.ready; r > now {
		c.merged.Inc()
		return false, r
	}
	c.hits.Inc()
	return true, now + c.cfg.HitLatency
}

// Prefetch starts the fill of qp's context at now, as on a doorbell, and
// reports whether it did: nothing happens when the context is on chip or
// already being filled. A prefetch counts as a use for LRU.
func (c *QPCache) Prefetch(qp uint32, now rtlmodel.Time) bool {
	c.clock++
	if find(c.setLines(qp), qp) != nil {
		return false
	}
	c.prefetches.Inc()
	l := c.fill(qp, now+c.cfg.MissLatency)
	l.stamp = c.clock
	l.pref = true
	return true
}

// Contains reports whether qp's context has a line (on chip or filling).
func (c *QPCache) Contains(qp uint32) bool {
	return find(c.setLines(qp), qp) != nil
}

// Invalidate drops qp's line, if any (for example when the QP is
// destroyed).
func (c *QPCache) Invalidate(qp uint32) {
	if l := find(c.setLines(qp), qp); l != nil {
		l.tag, l.pref = 0, false
	}
}

// QPCacheStats is a snapshot of a QPCache's counters.
type QPCacheStats struct {
	Hits, Misses, Merged, Evictions, Prefetches, PrefetchUsed uint64
}

// Stats returns the counters.
func (c *QPCache) Stats() QPCacheStats {
	return QPCacheStats{
		Hits: c.hits.Value(), Misses: c.misses.Value(), Merged: c.merged.Value(),
		Evictions: c.evictions.Value(), Prefetches: c.prefetches.Value(), PrefetchUsed: c.prefUseful.Value(),
	}
}

// Lookups returns the number of lookups.
func (s QPCacheStats) Lookups() uint64 { return s.Hits + s.Misses + s.Merged }

// HitRate returns hits over lookups (0 with no lookup).
func (s QPCacheStats) HitRate() float64 {
	if n := s.Lookups(); n > 0 {
		return float64(s.Hits) / float64(n)
	}
	return 0
}
