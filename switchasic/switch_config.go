package switchasic

import (
	"fmt"
	"math"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/pipeline"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/serdes"
)

// Config is everything a switch is built from. Every latency the budget
// report prints is one of these fields, and the cycle model runs on the
// same fields.
type Config struct {
	// Plan partitions the SerDes lanes into ports.
	Plan *PortPlan
	// Pipes sets the packet-processing pipes, their clock and packet rate.
	Pipes PipeConfig

	// CableMillimetres is every port's cable length (FACTS 6.2: 2 m);
	// PortCableMillimetres overrides it per port.
	CableMillimetres     uint64
	PortCableMillimetres map[int]uint64
	// Interleave is the RS(544,514) codeword interleave (FACTS 3: 2 for
	// 400GBASE-R).
	Interleave serdes.Interleave
	// PhyTx is the TX MAC/PCS/FEC-encode/SerDes latency (FACTS 6.2:
	// 20-40 ns, E).
	PhyTx rtlmodel.Time
	// PhyRx is the RX FEC decode pipeline after the codeword fill (FACTS 3:
	// the whole RX decode is about 60-100 ns including the fill, E).
	PhyRx rtlmodel.Time
	// CutThroughBytes: when > 0 the ingress MAC passes a frame on once this
	// many bytes (the headers) are decoded, and the egress may start it
	// before its tail has arrived (never finishing before it). 0 is
	// store-and-forward.
	CutThroughBytes int

	// IngressCycles is the parser and forwarding pipeline, in pipe cycles.
	IngressCycles uint64
	// MMUCycles is admission, queueing and scheduling in the traffic
	// manager, in pipe cycles.
	MMUCycles uint64
	// EgressCycles is the egress pipeline (rewrite, ECN, INT), in cycles.
	EgressCycles uint64

	// TM configures buffer, ECN, PFC and trimming.
	TM TMConfig
	// LB is the load-balancing mode for ECMP groups, with its settings;
	// an ECMP.Seed of 0 is derived from Seed, so switches built with
	// different seeds hash differently (no polarisation across tiers).
	LB   LBMode
	DLB  DLBConfig
	ECMP packet.ECMPConfig
	// Classes configures egress scheduling of the 8 traffic classes:
	// class 7 (trimmed headers, CNPs) and 6 strict, 0-5 DWRR.
	Classes [8]pipeline.QueueClass
	// Shapers limit chosen egress ports to a rate (a token bucket per port,
	// exact integer arithmetic, pipeline.Shaper); ports not listed send at
	// line rate.
	Shapers map[int]ShaperConfig
	// Seed seeds every random stream of the switch.
	Seed uint64
	// MAC is the switch's base MAC address: port i's is MAC with i added
	// to its last two bytes, the source address of the PFC frames the
	// port sends. DefaultConfig takes 02-FF-00-00-00-00, a locally
	// administered address the NICs' (02-00-...) never take.
	MAC [6]byte

	// pipesApart keeps the ingress pipes components of their own in every
	// mode (pipes_hosted.go), for the tests that compare the two.
	pipesApart bool
}

// ShaperConfig is an egress port shaper: Num/Den bits per second and a
// bucket of DepthBytes (at least the largest frame).
type ShaperConfig struct {
	Num, Den   uint64
	DepthBytes uint64
}

// DefaultConfig is the 128x400G switch whose unloaded port-to-port latency
// for a 64 B frame meets the 260 ns target of FACTS 4 ("seed target
// switch"); the stage latencies are estimates (FACTS 6.1, E) sized to it.
func DefaultConfig() Config {
	plan := Mode128x400G(DefaultPipeConfig().Pipes)
	c := Config{
		Plan:             plan,
		Pipes:            DefaultPipeConfig(),
		CableMillimetres: 2000,
		Interleave:       2,
		PhyTx:            25 * rtlmodel.Nanosecond,
		PhyRx:            45 * rtlmodel.Nanosecond,
		CutThroughBytes:  128,
		IngressCycles:    80,
		MMUCycles:        64,
		EgressCycles:     32,
		TM:               DefaultTMConfig(plan.NumPorts()),
		LB:               PerFlow,
		ECMP:             packet.ECMPConfig{Fields: packet.Fields5Tuple, Func: packet.HashCRC32},
		Seed:             1,
		MAC:              [6]byte{0x02, 0xFF},
	}
	c.DLB = DefaultDLBConfig()
	for i := range c.Classes {
		c.Classes[i] = pipeline.QueueClass{Level: 2, Quantum: 4096}
	}
	c.Classes[7] = pipeline.QueueClass{Level: 0}
	c.Classes[6] = pipeline.QueueClass{Level: 1}
	return c
}

// validate checks what the builders below do not.
func (c Config) validate() error {
	if c.Plan == nil {
		return fmt.Errorf("switch: no port plan")
	}
	if n := c.Plan.NumPorts(); n > math.MaxInt16 {
		return fmt.Errorf("switch: %d ports; a descriptor numbers at most %d", n, math.MaxInt16)
	}
	if c.Pipes.ClockPeriod == 0 || c.Pipes.PacketsPerCycle < 1 {
		return fmt.Errorf("switch: pipes need a clock period and at least 1 packet per cycle")
	}
	if c.IngressCycles < 1 || c.MMUCycles+c.EgressCycles < 1 {
		return fmt.Errorf("switch: pipeline stages need at least one cycle each (links have latency >= 1)")
	}
	if c.CutThroughBytes < 0 || c.CutThroughBytes > packet.HeaderCap {
		return fmt.Errorf("switch: cut-through after %d bytes; 0 (store-and-forward) to %d", c.CutThroughBytes, packet.HeaderCap)
	}
	return nil
}
