package switchasic

import (
	"fmt"
	"math/big"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// MinEthernetWireSlot is the wire slot of a minimum 64 B Ethernet frame:
// 64 B + 8 B preamble/SFD + 12 B IPG = 84 B (FACTS conventions and 1.5, S).
const MinEthernetWireSlot = 84

// PipeConfig is the packet-processing capacity of the chip: Pipes pipes,
// each accepting up to PacketsPerCycle packets per cycle of a clock of
// period ClockPeriod. Together with a PortPlan it fixes the smallest packet
// the chip forwards at line rate (FACTS 4 note: "a golden model should take
// min packet size at line rate as a parameter").
type PipeConfig struct {
	Pipes           int           // number of pipes; must divide the 64 SerDes cores
	PacketsPerCycle int           // packets a pipe accepts per clock cycle
	ClockPeriod     rtlmodel.Time // pipe clock period in ps
}

// DefaultPipeConfig is 8 pipes x 4 packets/cycle at 1.25 GHz (800 ps):
// 40 Gpps for the whole chip, line rate down to 160 B wire slots in
// 128x400G (see MinWireSlotAtLineRate). Tag E: no 51.2T part publishes its
// pipe clock or count (FACTS 1.5 "Switch pipeline clock rates are not
// published"); the figure is chosen to sit with the published packet rates,
// Spectrum-4 37.6 Bpps (line rate down to about 170 B) and Silicon One P200
// 20 Bpps (FACTS 4 [R35][R40]), and 1.25 GHz is one of the FACTS 1.5
// reference clocks.
func DefaultPipeConfig() PipeConfig {
	return PipeConfig{Pipes: 8, PacketsPerCycle: 4, ClockPeriod: 800 * rtlmodel.Picosecond}
}

// Validate checks that every field is positive.
func (c PipeConfig) Validate() error {
	if c.Pipes <= 0 || c.PacketsPerCycle <= 0 || c.ClockPeriod == 0 {
		return fmt.Errorf("switchasic: pipe config needs positive pipes, packets per cycle and clock period (got %d, %d, %v)",
			c.Pipes, c.PacketsPerCycle, c.ClockPeriod)
	}
	return nil
}

// ClockHz is the pipe clock frequency in Hz, for reports.
func (c PipeConfig) ClockHz() float64 { return 1e12 / float64(c.ClockPeriod) }

// PacketRate is the whole chip's packet rate in packets per second:
// Pipes x PacketsPerCycle / ClockPeriod (40e9 for DefaultPipeConfig). For
// reports; MinWireSlotAtLineRate does the exact arithmetic.
func (c PipeConfig) PacketRate() float64 {
	return float64(c.Pipes) * float64(c.PacketsPerCycle) * 1e12 / float64(c.ClockPeriod)
}

// PipeWireSlot is the smallest wire slot in bytes (frame + 20, FACTS
// conventions) at which pipe of plan keeps up with all its ports at their
// MAC rates, rounded up to a whole byte, with no floor at the Ethernet
// minimum. Ports at B b/s in total send B/(8S) packets per second of S-byte
// slots; the pipe takes PacketsPerCycle x 1e12/ClockPeriod, so
//
//	S = ceil(B x ClockPeriod / (8 x PacketsPerCycle x 1e12))
//
// in exact integer arithmetic. A pipe with no ports gives 0. It panics on
// an invalid config (see Validate).
func PipeWireSlot(plan *PortPlan, c PipeConfig, pipe int) int {
	if err := c.Validate(); err != nil {
		panic(err)
	}
	r := plan.PipeMACRate(pipe).BitsPerSecond()
	num := new(big.Int).SetUint64(r.Num())
	num.Mul(num, new(big.Int).SetUint64(uint64(c.ClockPeriod)))
	den := new(big.Int).SetUint64(r.Den())
	den.Mul(den, big.NewInt(8*int64(c.PacketsPerCycle)))
	den.Mul(den, big.NewInt(1_000_000_000_000))
	q, m := new(big.Int).QuoRem(num, den, new(big.Int))
	if m.Sign() != 0 {
		q.Add(q, big.NewInt(1))
	}
	return int(q.Int64())
}

// MinWireSlotAtLineRate is the smallest wire slot in bytes (frame + 20) at
// which every pipe keeps up with all its ports at line rate: the largest
// PipeWireSlot over the pipes, never below MinEthernetWireSlot (a result of
// 84 means line rate at every frame size). For the default 8 pipes x 4
// packets/cycle at 800 ps and 128x400G, a pipe has 16 x 400 Gb/s =
// 6.4e12 b/s and S = 6.4e12 x 800 / (8 x 4 x 1e12) = 160 B (a 140 B frame).
// The plan's pipe count must equal c.Pipes; it panics otherwise, or on an
// invalid config.
func MinWireSlotAtLineRate(plan *PortPlan, c PipeConfig) int {
	if plan.Pipes() != c.Pipes {
		panic(fmt.Sprintf("switchasic: port plan has %d pipes, pipe config %d", plan.Pipes(), c.Pipes))
	}
	s := MinEthernetWireSlot
	for p := 0; p < plan.Pipes(); p++ {
		s = max(s, PipeWireSlot(plan, c, p))
	}
	return s
}
