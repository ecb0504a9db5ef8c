package rtlmodel

import (
	"slices"
	"testing"
)

// TestRegistryEachVisitsEveryMetricOnce checks that Each calls its
// function once for each registered metric, owned ones included, and
// that All returns the same metrics sorted by name.
func TestRegistryEachVisitsEveryMetricOnce(t *testing.T) {
	r := NewRegistry()
	r.Counter("b/frames", "frames", "")
	r.Gauge("a/depth", "bytes", "")
	r.Histogram("c/latency", "ps", "")
	var own Counter
	r.Own(&own, "d/bytes", "bytes", "")
	seen := map[string]int{}
	r.Each(func(m Metric) { seen[m.Name()]++ })
	var all []string
	for _, m := range r.All() {
		all = append(all, m.Name())
	}
	want := []string{"a/depth", "b/frames", "c/latency", "d/bytes"}
	if !slices.Equal(all, want) {
		t.Errorf("All = %v, want %v", all, want)
	}
	if len(seen) != len(want) {
		t.Errorf("Each visited %v, want each of %v once", seen, want)
	}
	for _, name := range want {
		if seen[name] != 1 {
			t.Errorf("Each visited %s %d times, want once", name, seen[name])
		}
	}
}
