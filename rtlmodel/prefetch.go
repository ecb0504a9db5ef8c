package rtlmodel

import "unsafe"

// Prefetch asks the processor to bring the cache line holding p into its
// caches and returns at once: the load goes on while the caller computes,
// where an ordinary read would wait for it. It reads nothing and cannot
// fault (any address, nil included, is fine), so it changes no result; it
// only moves misses earlier. A model of a thousand devices touches each
// device's state once per window, long after the rest of the fabric has
// evicted it; naming the lines a device will read while the one before it
// runs overlaps their misses with useful work.
func Prefetch(p unsafe.Pointer) { prefetch(p) }
