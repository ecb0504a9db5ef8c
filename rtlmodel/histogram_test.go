package rtlmodel

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// denseBuckets is the histogram's bucket counts held from bucket 0, the
// plain way, to check the held span against.
type denseBuckets []uint64

func (d *denseBuckets) record(v uint64) {
	b := histBucket(v)
	for len(*d) <= b {
		*d = append(*d, 0)
	}
	(*d)[b]++
}

// percentile is Histogram.Percentile over the dense counts.
func (d denseBuckets) percentile(p float64, n, lo, hi uint64) uint64 {
	rank := max(uint64(math.Ceil(p*float64(n))), 1)
	var seen uint64
	for b, c := range d {
		seen += c
		if seen >= rank {
			return min(max(histUpper(b), lo), hi)
		}
	}
	return hi
}

// A histogram holds only the span of buckets its samples reach, growing
// it either way, and answers every percentile as one holding every bucket
// from 0 would; merging spans that overlap, nest or lie apart gives the
// histogram of all the samples. A thousand latencies of 88 to 132 us in
// ps, one device's doorbell-to-CQE times, take a few hundred buckets
// where their largest bucket's index is above 2,600.
func TestHistogramHoldsOnlyTheSpanItsSamplesReach(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	draws := map[string]func() uint64{
		"latency": func() uint64 { return 88_000_000 + rng.Uint64N(44_000_000) },
		"wide":    func() uint64 { return uint64(math.Exp(rng.Float64() * 40)) },
		"falling": nil, // set below: ever smaller values, so the span grows downward
	}
	next := uint64(1) << 50
	draws["falling"] = func() uint64 { next = next/2 + rng.Uint64N(next/4+1); return next }
	for name, draw := range draws {
		r := NewRegistry()
		h := r.Histogram(name, "ps", "")
		var dense denseBuckets
		for range 1000 {
			v := draw()
			h.Record(v)
			dense.record(v)
		}
		for _, p := range []float64{0, 0.01, 0.1, 0.5, 0.9, 0.99, 0.999, 1} {
			require.Equal(t, dense.percentile(p, h.Count(), h.Min(), h.Max()), h.Percentile(p), "%s p%v", name, p)
		}
		if name == "latency" {
			require.Greater(t, histBucket(h.Max()), 2600)
			require.Less(t, len(h.counts), 400, "buckets held for samples within a factor of 1.5")
		}
	}
	// merges of spans apart, overlapping and nested
	for _, c := range []struct{ a, b [2]uint64 }{
		{[2]uint64{10, 1000}, [2]uint64{1 << 30, 1 << 40}},
		{[2]uint64{1 << 30, 1 << 40}, [2]uint64{10, 1000}},
		{[2]uint64{5000, 9000}, [2]uint64{7000, 20000}},
		{[2]uint64{100, 1 << 20}, [2]uint64{4000, 5000}},
	} {
		r := NewRegistry()
		a, b, all := r.Histogram("a", "", ""), r.Histogram("b", "", ""), r.Histogram("all", "", "")
		for range 500 {
			va := c.a[0] + rng.Uint64N(c.a[1]-c.a[0])
			vb := c.b[0] + rng.Uint64N(c.b[1]-c.b[0])
			a.Record(va)
			b.Record(vb)
			all.Record(va)
			all.Record(vb)
		}
		a.Merge(b)
		require.Equal(t, all.Count(), a.Count())
		for _, p := range []float64{0, 0.25, 0.5, 0.75, 0.99, 1} {
			require.Equal(t, all.Percentile(p), a.Percentile(p), "%v p%v", c, p)
		}
	}
}
