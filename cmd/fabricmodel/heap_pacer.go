package main

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// heapPacer paces the Go collector for a run, whose model is allocated
// while it is built and lives until the run ends. Left at its default
// (GOGC=100), the collector runs each time the heap doubles: seven
// times while the 1024-endpoint fabric is built, marking the growing
// model each time. None of these collections frees anything worth
// having.
//
// The pacer turns the collector off while the model is built (start) and,
// once it is (built), sets a soft memory limit of the memory mapped then
// plus the model's size, so that the run may allocate as much again as
// the model before the first collection. After each collection the limit
// becomes, if that is more, the runtime's own memory plus twice the heap
// the collection found live: from then on the heap grows between
// collections as GOGC=100 would let it. A run that allocates less than
// its model, as a permutation on a large fabric does, never collects.
//
// The environment's GOGC or GOMEMLIMIT, when set, is the user's choice:
// the pacer then does nothing.
type heapPacer struct {
	on    bool
	mu    sync.Mutex
	floor uint64 // the limit set when the model was built
	limit uint64 // the limit in force

	prevPercent int   // the collector's settings before start, restored by stop
	prevLimit   int64 //
}

// heapMetrics are the runtime/metrics samples the pacer reads.
var heapMetrics = []string{
	"/memory/classes/total:bytes",
	"/memory/classes/heap/released:bytes",
	"/memory/classes/heap/objects:bytes",
	"/memory/classes/heap/free:bytes",
	"/memory/classes/heap/unused:bytes",
	"/gc/heap/live:bytes",
}

// heapSnapshot is one reading of heapMetrics.
type heapSnapshot struct {
	total, released, objects, free, unused, live uint64
}

func readHeap() heapSnapshot {
	s := make([]metrics.Sample, len(heapMetrics))
	for i, name := range heapMetrics {
		s[i].Name = name
	}
	metrics.Read(s)
	v := func(i int) uint64 {
		if s[i].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return s[i].Value.Uint64()
	}
	return heapSnapshot{total: v(0), released: v(1), objects: v(2), free: v(3), unused: v(4), live: v(5)}
}

// mapped is the memory the runtime holds from the system and has not
// returned: what a memory limit counts.
func (h heapSnapshot) mapped() uint64 { return h.total - h.released }

// runtimeOwn is the mapped memory that is not heap: stacks, the
// runtime's metadata and the like.
func (h heapSnapshot) runtimeOwn() uint64 {
	heap := h.objects + h.free + h.unused
	if m := h.mapped(); m > heap {
		return m - heap
	}
	return 0
}

// startHeapPacer turns the collector off for the build, unless the
// environment sets GOGC or GOMEMLIMIT.
func startHeapPacer() *heapPacer {
	p := &heapPacer{}
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return p
	}
	p.on = true
	p.prevPercent = debug.SetGCPercent(-1)
	p.prevLimit = debug.SetMemoryLimit(-1)
	return p
}

// stop gives the collector back its settings from before start; the
// process goes on (in tests, or after a run's outputs) as it began.
func (p *heapPacer) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.on {
		return
	}
	p.on = false
	p.limit = 0
	debug.SetMemoryLimit(p.prevLimit)
	debug.SetGCPercent(p.prevPercent)
}

// built sets the limit the run starts under; the model is what the heap
// holds now (nothing was collected while it was built).
func (p *heapPacer) built() {
	h := readHeap()
	p.mu.Lock()
	if !p.on {
		p.mu.Unlock()
		return
	}
	p.floor = h.mapped() + h.objects
	p.limit = p.floor
	debug.SetMemoryLimit(clampLimit(p.limit))
	p.mu.Unlock()
	p.watch()
}

// watch arranges for collected to run after the next collection: the
// cleanup of an object nothing refers to runs once a collection has
// found it unreachable.
func (p *heapPacer) watch() {
	runtime.AddCleanup(new(gcSentinel), func(p *heapPacer) { p.collected() }, p)
}

// gcSentinel is the object whose collection marks a collection's end; it
// holds a pointer so that it is not combined with other small objects.
type gcSentinel struct{ _ *byte }

// collected raises the limit to the runtime's own memory plus twice the
// live heap the collection found, if that is more, and watches for the
// next collection.
func (p *heapPacer) collected() {
	h := readHeap()
	p.mu.Lock()
	if !p.on {
		p.mu.Unlock()
		return // stopped: no more watching
	}
	if want := h.runtimeOwn() + 2*h.live; want > p.limit {
		p.limit = want
		debug.SetMemoryLimit(clampLimit(p.limit))
	}
	p.mu.Unlock()
	p.watch()
}

// limitNow is the limit in force (0 while the model is being built or
// when the pacer is off).
func (p *heapPacer) limitNow() uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.limit
}

// clampLimit converts a limit in bytes to SetMemoryLimit's int64.
func clampLimit(b uint64) int64 {
	if b > math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(b)
}
