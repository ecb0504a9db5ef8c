package fabric

import (
	"context"
	"errors"
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

// nackBacklog is a 15:1 incast of 1 MB writes in 1 KB packets under
// DCQCN and go-back-N into a trimming switch (random scenario 49/90; over
// IPv6 a trimmed packet keeps 74 bytes, its PSN among them):
// the senders do not slow down for trims, so the receiver's link fills
// with trimmed headers, and a NACK for each, larger than the headers,
// does not fit on the way back. Its flows do not complete in the times
// it is run to; some fail when their retries run out.
const nackBacklog = `name: nack-backlog
seed: 823
topology: {kind: leafspine, leaves: 2, spines: 1, hosts_per_leaf: 8}
switch: {lb: spray, trimming: true, buffer_bytes: 2000000}
nic: {cc: dcqcn, paths: spray, mtu: 1024, recovery: gbn, stack: roce-ipv6}
workload: {kind: incast, senders: 15, bytes: 1048576}
`

// BenchmarkNACKBacklog runs nackBacklog to 0.5 and to 2 ms of
// simulated time and reports the wall time per simulated microsecond:
// the receiver's backlog of control frames would grow all the while, and
// the cost of sending one must not grow with it. A queue that slid its
// slice on each send cost 6.6 times as much per microsecond over 2 ms as
// over 0.5 ms, when this storm trimmed to 64 bytes and its receivers
// NACKed headers cut before their PSN.
func BenchmarkNACKBacklog(b *testing.B) {
	s, err := ParseScenario("nack_backlog.yaml", []byte(nackBacklog))
	if err != nil {
		b.Fatal(err)
	}
	for _, until := range []rtlmodel.Time{500 * rtlmodel.Microsecond, 2 * rtlmodel.Millisecond} {
		b.Run(until.String(), func(b *testing.B) {
			for b.Loop() {
				r, err := NewRun(s)
				if err != nil {
					b.Fatal(err)
				}
				var failed *FlowsFailedError
				if err := r.Complete(context.Background(), 10*rtlmodel.Microsecond, until, nil); err != nil && !errors.As(err, &failed) {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(until.Nanoseconds()/1e3), "ns/simulated-us")
		})
	}
}
