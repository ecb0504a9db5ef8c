package fabric

import (
	"errors"
	"fmt"

	"github.com/fabricmodel/fabricmodel/nic400g"
)

// Bounds of a scenario's times, lengths and sizes: well past anything a
// fabric run simulates, and far enough below 2^64 picoseconds or bytes
// that no conversion or sum of them overflows (a time of 2^64/10^6 us
// would wrap to almost nothing).
const (
	// maxScenarioUS bounds every time a scenario gives in microseconds
	// (max_time_us, workload.start_us, workload.duration_us) and a
	// trace's start_ns: 10 s of simulated time.
	maxScenarioUS = 10_000_000
	// maxCableMM bounds a cable's length: 1 km, past the longest run
	// inside a data centre.
	maxCableMM = 1_000_000
	// maxFlowBytes bounds one flow's bytes (workload.bytes, a size_cdf
	// point, a trace's bytes): a flow is one work request, at most
	// nic400g.MaxMessageBytes (4 GiB − 1, 86 ms of a 400G link).
	maxFlowBytes = nic400g.MaxMessageBytes
	// flowBytesBound says what maxFlowBytes is, for the errors that name it.
	flowBytesBound = "4 GiB − 1, the 32-bit length of a work request and of the RETH's DMA length"
	// MaxSwitchBufferBytes bounds a switch's shared buffer
	// (switch.buffer_bytes; the incast sweep's too): 2 GB, ten times the
	// largest 51.2T switch buffer FACTS 4 lists (Marvell Teralynx 10,
	// "> 200 MB"; Tomahawk 5, the default, 173.3 MB [R71]). Nothing
	// larger is a switch a fabric run could stand for.
	MaxSwitchBufferBytes = 2_000_000_000
	// maxBackgroundFlows bounds the flows a background workload is
	// expected to draw (in each rail plane), which it holds in memory.
	maxBackgroundFlows = 2_000_000
)

// checkBounds rejects a time, length or size past its bound, naming the
// key, the unit and the bound, and a count of ranks below 0.
func (s *Scenario) checkBounds() error {
	var errs []error
	bound := func(key string, v, most uint64, unit, what string) {
		if v > most {
			errs = append(errs, keyed(key, fmt.Errorf("%s %d: %s, at most %d (%s)", key, v, unit, most, what)))
		}
	}
	us := func(key string, v uint64) { bound(key, v, maxScenarioUS, "microseconds", "10 s of simulated time") }
	us("max_time_us", s.MaxTimeUS)
	us("workload.start_us", s.Workload.StartUS)
	us("workload.duration_us", s.Workload.DurationUS)
	topo := s.Topology.TopologyConfig
	mm := func(key string, v uint64) {
		bound(key, v, maxCableMM, "millimetres", "1 km, past any cable inside a data centre")
	}
	mm("topology.host_cable_mm", topo.HostCableMillimetres)
	mm("topology.tier1_cable_mm", topo.Tier1CableMillimetres)
	mm("topology.tier2_cable_mm", topo.Tier2CableMillimetres)
	bound("workload.bytes", s.Workload.Bytes, maxFlowBytes, "bytes", flowBytesBound)
	for i, p := range s.Workload.SizeCDF {
		bound(fmt.Sprintf("workload.size_cdf.%d.bytes", i), p.Bytes, maxFlowBytes, "bytes", flowBytesBound)
	}
	bound("switch.buffer_bytes", s.Switch.BufferBytes, MaxSwitchBufferBytes, "bytes",
		"2 GB, ten times the largest buffer of a 51.2T switch (Teralynx 10, more than 200 MB)")
	bound("switch.queue_reserve_bytes", s.Switch.QueueReserveBytes, MaxSwitchBufferBytes, "bytes",
		"2 GB, the largest buffer (switch.buffer_bytes)")
	if s.Workload.Ranks < 0 {
		errs = append(errs, keyed("workload.ranks", fmt.Errorf("workload.ranks %d: the endpoints taking part, 2 or more (0: every endpoint)", s.Workload.Ranks)))
	}
	return errors.Join(errs...)
}
