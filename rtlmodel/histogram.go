package rtlmodel

import (
	"math"
	"math/bits"
)

// histSubBits sets the histogram's precision: values below 2^histSubBits
// are counted exactly, larger ones in buckets whose width is 1/2^histSubBits
// of their magnitude (relative error under 0.8 %).
const histSubBits = 7

// Histogram records non-negative integer samples (cycles, ps, bytes) in
// log-linear buckets and answers percentiles.
type Histogram struct {
	metricBase
	// counts[i] counts bucket base+i: only the buckets from the smallest
	// sample's to the largest's are held (more as it grows), so that a
	// latency histogram in ps, whose samples lie in a few of its 8,000-odd
	// buckets, takes a few hundred bytes where one per device is kept
	counts   []uint64
	base     int
	n        uint64
	sum      float64
	min, max uint64
}

// histMinSpan is the fewest buckets a histogram holds once it has a
// sample.
const histMinSpan = 16

// hold makes the histogram hold buckets lo to hi, growing what it holds
// by at least twice its span, toward the side that needs it.
func (h *Histogram) hold(lo, hi int) {
	if len(h.counts) == 0 {
		h.base, h.counts = lo, make([]uint64, max(hi-lo+1, histMinSpan))
		return
	}
	curLo, curHi := h.base, h.base+len(h.counts)-1
	if lo >= curLo && hi <= curHi {
		return
	}
	newLo, newHi := min(lo, curLo), max(hi, curHi)
	want := max(newHi-newLo+1, 2*len(h.counts))
	if lo < curLo {
		newLo = max(0, newHi-want+1)
	} else {
		newHi = newLo + want - 1
	}
	nc := make([]uint64, newHi-newLo+1)
	copy(nc[curLo-newLo:], h.counts)
	h.base, h.counts = newLo, nc
}

// Kind returns "histogram".
func (*Histogram) Kind() string { return "histogram" }

func histBucket(v uint64) int {
	if v < 1<<histSubBits {
		return int(v)
	}
	exp := bits.Len64(v) - histSubBits // >= 1
	return exp<<histSubBits + int(v>>uint(exp-1)) - 1<<histSubBits
}

// histUpper returns the largest value that falls in bucket b.
func histUpper(b int) uint64 {
	if b < 1<<histSubBits {
		return uint64(b)
	}
	exp := b >> histSubBits
	sub := uint64(b&(1<<histSubBits-1)) + 1<<histSubBits
	return (sub+1)<<uint(exp-1) - 1
}

// Record adds one sample.
func (h *Histogram) Record(v uint64) {
	b := histBucket(v)
	h.hold(b, b)
	h.counts[b-h.base]++
	if h.n == 0 || v < h.min {
		h.min = v
	}
	if v > h.max {
		h.max = v
	}
	h.n++
	h.sum += float64(v)
}

// Count returns the number of samples.
func (h *Histogram) Count() uint64 { return h.n }

// Min returns the smallest sample (0 when empty).
func (h *Histogram) Min() uint64 { return h.min }

// Max returns the largest sample.
func (h *Histogram) Max() uint64 { return h.max }

// Mean returns the average sample (NaN when empty).
func (h *Histogram) Mean() float64 {
	if h.n == 0 {
		return math.NaN()
	}
	return h.sum / float64(h.n)
}

// Percentile returns the smallest bucket bound at or below which a fraction
// p (0..1) of the samples lie, clamped to the observed min and max. Values
// under 128 are exact.
func (h *Histogram) Percentile(p float64) uint64 {
	if h.n == 0 {
		return 0
	}
	rank := uint64(math.Ceil(p * float64(h.n)))
	rank = max(rank, 1)
	var seen uint64
	for i, c := range h.counts {
		seen += c
		if seen >= rank {
			return min(max(histUpper(h.base+i), h.min), h.max)
		}
	}
	return h.max
}

// Merge adds every sample of o to h.
func (h *Histogram) Merge(o *Histogram) {
	if o.n == 0 {
		return
	}
	h.hold(o.base, o.base+len(o.counts)-1)
	for i, c := range o.counts {
		h.counts[o.base+i-h.base] += c
	}
	if h.n == 0 || o.min < h.min {
		h.min = o.min
	}
	h.max = max(h.max, o.max)
	h.n += o.n
	h.sum += o.sum
}
