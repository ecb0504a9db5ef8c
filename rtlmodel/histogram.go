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
	counts   []uint64
	n        uint64
	sum      float64
	min, max uint64
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
	if b >= len(h.counts) {
		n := max(2*len(h.counts), b+1, 1<<histSubBits)
		nc := make([]uint64, n)
		copy(nc, h.counts)
		h.counts = nc
	}
	h.counts[b]++
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
	for b, c := range h.counts {
		seen += c
		if seen >= rank {
			return min(max(histUpper(b), h.min), h.max)
		}
	}
	return h.max
}

// Merge adds every sample of o to h.
func (h *Histogram) Merge(o *Histogram) {
	if o.n == 0 {
		return
	}
	if len(o.counts) > len(h.counts) {
		nc := make([]uint64, len(o.counts))
		copy(nc, h.counts)
		h.counts = nc
	}
	for b, c := range o.counts {
		h.counts[b] += c
	}
	if h.n == 0 || o.min < h.min {
		h.min = o.min
	}
	h.max = max(h.max, o.max)
	h.n += o.n
	h.sum += o.sum
}
