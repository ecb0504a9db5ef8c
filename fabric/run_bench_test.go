package fabric

import (
	"context"
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
	benchmarkRun(b, s)
}

// BenchmarkRun256Endpoints is BenchmarkRunDefaultScenario on the
// 256-endpoint leaf-spine of docs/scenarios (16 leaves of 16 hosts, 2 MB
// permutation): a fabric whose state no longer fits in the caches, with
// enough partitions for the kernel's prefetch pipeline, like the
// 1024-endpoint runs the speed goal is stated for.
func BenchmarkRun256Endpoints(b *testing.B) {
	s, err := LoadScenario("../docs/scenarios/speed_256_leafspine.yaml")
	if err != nil {
		b.Fatal(err)
	}
	benchmarkRun(b, s)
}

// benchmarkRun runs s to completion per iteration and reports delivered
// data packets per wall second and allocations per delivered packet.
func benchmarkRun(b *testing.B, s *Scenario) {
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
		if err := r.Complete(context.Background(), 10*rtlmodel.Microsecond, 10*rtlmodel.Millisecond, nil); err != nil {
			b.Fatal(err)
		}
		if r.Done() != len(r.Flows) {
			b.Fatalf("%s: %d of %d flows complete after 10 ms", s.Name, r.Done(), len(r.Flows))
		}
		runtime.ReadMemStats(&ms)
		mallocs += ms.Mallocs - before
		packets += r.Results().DataPackets
	}
	b.ReportMetric(float64(packets)/b.Elapsed().Seconds(), "pkts/s")
	b.ReportMetric(float64(mallocs)/float64(packets), "allocs/pkt")
}
