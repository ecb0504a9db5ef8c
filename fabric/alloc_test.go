package fabric

import (
	"runtime"
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// In steady state the fabric allocates nothing per packet: after a warm-up
// in which queues, the descriptor pool and the kernel's heaps reach their
// depths, a 290 us window of the default fabric at full load (32 MB flows,
// about 65,000 data packets, each crossing up to five links and three
// switches) makes at most a few dozen allocations, each a queue or the
// descriptor pool reaching a new depth. One allocation per packet or per
// hop anywhere on the datapath would make tens of thousands. So for each
// stack the switches forward: RoCEv2 over IPv4 and over IPv6, and UET,
// whose frames a switch once tried to decode as RoCEv2 first, allocating
// the error of that decode, 2.6 per packet.
func TestSteadyStateAllocatesNothingPerPacket(t *testing.T) {
	for _, stack := range []string{"roce-ipv4", "roce-ipv6", "uet"} {
		t.Run(stack, func(t *testing.T) {
			s, err := DefaultScenario()
			if err != nil {
				t.Fatal(err)
			}
			s.Workload.Bytes = 32 << 20
			s.NIC.Stack = stack
			r, err := NewRun(s)
			if err != nil {
				t.Fatal(err)
			}
			e := r.Cluster.Engine
			if err := e.Run(110 * rtlmodel.Microsecond); err != nil {
				t.Fatal(err)
			}
			before := r.Results().DataPackets
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			mallocs := ms.Mallocs
			if err := e.Run(400 * rtlmodel.Microsecond); err != nil {
				t.Fatal(err)
			}
			runtime.ReadMemStats(&ms)
			mallocs = ms.Mallocs - mallocs
			packets := r.Results().DataPackets - before
			if r.Done() != 0 || packets < 50_000 {
				t.Fatalf("the window must be all steady traffic: %d flows done, %d packets", r.Done(), packets)
			}
			perPacket := float64(mallocs) / float64(packets)
			t.Logf("%d allocations for %d data packets delivered: %.5f per packet", mallocs, packets, perPacket)
			if perPacket > 0.001 {
				t.Fatalf("%d allocations for %d packets in steady state (%.4f per packet)", mallocs, packets, perPacket)
			}
		})
	}
}
