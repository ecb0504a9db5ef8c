package fabric

import (
	"runtime"
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// BenchmarkRunDefaultScenario runs the embedded default scenario (32
// endpoints, two-tier leaf-spine, 2 MB permutation under DCQCN) to
// completion per iteration. It reports delivered data packets per wall
// second, the figure the fabric speed goal is stated in, and the
// allocations per delivered packet while it runs (building the
// cluster excluded), so a regression in either shows in
// one run.
func BenchmarkRunDefaultScenario(b *testing.B) {
	s, err := DefaultScenario()
	if err != nil {
		b.Fatal(err)
	}
	var packets uint64
	var mallocs uint64
	var ms runtime.MemStats
	b.ReportAllocs()
	for b.Loop() {
		r, err := NewRun(s)
		if err != nil {
			b.Fatal(err)
		}
		runtime.ReadMemStats(&ms)
		before := ms.Mallocs
		done := false
		for t := rtlmodel.Time(0); !done; {
			t += 10 * rtlmodel.Microsecond
			if done, err = r.Step(t); err != nil {
				b.Fatal(err)
			}
			if t > 10*rtlmodel.Millisecond {
				b.Fatalf("default scenario not complete after %v: %d of %d flows", t, r.Done(), len(r.Flows))
			}
		}
		runtime.ReadMemStats(&ms)
		mallocs += ms.Mallocs - before
		packets += r.Results().DataPackets
	}
	b.ReportMetric(float64(packets)/b.Elapsed().Seconds(), "pkts/s")
	b.ReportMetric(float64(mallocs)/float64(packets), "allocs/pkt")
}
