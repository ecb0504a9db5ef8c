package fabric

import (
	"fmt"
	"sort"
	"strings"

	"github.com/fabricmodel/fabricmodel/nic400g"
	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/serdes"
	"github.com/fabricmodel/fabricmodel/switchasic"
)

// BudgetConfig is everything a budget report is computed from.
type BudgetConfig struct {
	Path LatencyPath
	// Payload is the RDMA WRITE payload of the latency budgets, in bytes.
	Payload int
	// QPs is the QP count of the scale budget (850,000: the seed target).
	QPs int
	// Endpoints is the forwarding table size of the scale budget
	// (131,072, FACTS 5.4).
	Endpoints int
	// Rails is the plane count of the rail-optimized rows (FACTS 5.4).
	Rails int
}

// DefaultBudgetConfig is the default switch, NIC and host.
func DefaultBudgetConfig() BudgetConfig {
	return BudgetConfig{Path: DefaultLatencyPath(), Payload: 64, QPs: 850_000, Endpoints: 131_072, Rails: 8}
}

// The bounds of the budget parameters that no model fixes: wide enough
// for any design study, and far from overflowing the picoseconds of a
// budget.
const (
	// budgetMaxClock is the longest clock period, 1 us (a 1 MHz clock).
	budgetMaxClock = rtlmodel.Microsecond
	// budgetMaxCycles is the longest pipeline, in cycles.
	budgetMaxCycles = 1_000_000
	// budgetMaxLatency is the longest fixed latency of a stage, 1 ms.
	budgetMaxLatency = rtlmodel.Millisecond
	// budgetMaxCableMM is the longest cable, 10 km (400GBASE-LR4).
	budgetMaxCableMM = 10_000_000
	// budgetMaxRails is the most planes (NICs per server).
	budgetMaxRails = 64
	// budgetMaxEndpoints is the most forwarding table endpoints: every
	// 32-bit endpoint address.
	budgetMaxEndpoints = 1 << 32
	// budgetMaxQPs is the most QPs a nic400g.QPStore holds.
	budgetMaxQPs = 1 << 24
)

// budgetCores is the SerDes cores of the budget's switch, which its
// pipes split evenly.
const budgetCores = switchasic.ChipLanes / switchasic.CoreLanes

var budgetParams = []budgetParam{
	wholeParam("switch.clock_ps", "ps", "pipe clock period", 1, budgetMaxClock,
		func(c *BudgetConfig) *rtlmodel.Time { return &c.Path.Switch.Pipes.ClockPeriod }),
	pipesParam(),
	wholeParam("switch.packets_per_cycle", "", "packets per pipe per cycle", 1, 64,
		func(c *BudgetConfig) *int { return &c.Path.Switch.Pipes.PacketsPerCycle }),
	wholeParam("switch.ingress_cycles", "cycles", "parser and forwarding pipeline", 1, budgetMaxCycles,
		func(c *BudgetConfig) *uint64 { return &c.Path.Switch.IngressCycles }),
	wholeParam("switch.mmu_cycles", "cycles", "traffic manager admit, queue, schedule", 0, budgetMaxCycles,
		func(c *BudgetConfig) *uint64 { return &c.Path.Switch.MMUCycles }),
	wholeParam("switch.egress_cycles", "cycles", "egress pipeline", 0, budgetMaxCycles,
		func(c *BudgetConfig) *uint64 { return &c.Path.Switch.EgressCycles }),
	wholeParam("phy.tx_ps", "ps", "TX MAC/PCS/FEC encode/SerDes", 0, budgetMaxLatency,
		func(c *BudgetConfig) *rtlmodel.Time { return &c.Path.Switch.PhyTx }),
	wholeParam("phy.fec_decode_ps", "ps", "RX FEC decode pipeline after the codeword fill", 0, budgetMaxLatency,
		func(c *BudgetConfig) *rtlmodel.Time { return &c.Path.Switch.PhyRx }),
	wholeParam("phy.cable_mm", "mm", "cable length", 0, budgetMaxCableMM,
		func(c *BudgetConfig) *uint64 { return &c.Path.Switch.CableMillimetres }),
	ruledParam("phy.interleave", "", "RS(544,514) codeword interleave", "1 or 2", 1, 2, nil,
		func(c *BudgetConfig) *serdes.Interleave { return &c.Path.Switch.Interleave }),
	wholeParam("switch.cut_through_bytes", "B", "bytes before an ingress passes a frame on (0: store-and-forward)", 0, packet.HeaderCap,
		func(c *BudgetConfig) *int { return &c.Path.Switch.CutThroughBytes }),
	wholeParam("nic.clock_ps", "ps", "NIC core clock period", 1, budgetMaxClock,
		func(c *BudgetConfig) *rtlmodel.Time { return &c.Path.NIC.ClockPeriod }),
	wholeParam("nic.tx_cycles", "cycles", "NIC transmit pipeline", 1, budgetMaxCycles,
		func(c *BudgetConfig) *uint64 { return &c.Path.NIC.TxCycles }),
	wholeParam("nic.rx_cycles", "cycles", "NIC receive pipeline", 1, budgetMaxCycles,
		func(c *BudgetConfig) *uint64 { return &c.Path.NIC.RxCycles }),
	wholeParam("nic.mtu", "B", "payload bytes per packet", nic400g.MinMTU, nic400g.MaxMTU,
		func(c *BudgetConfig) *int { return &c.Path.NIC.MTU }),
	choiceParam("nic.stack", "header stack", []string{"roce-ipv4", "roce-ipv6", "ib", "uet"},
		[]nic400g.HeaderStack{nic400g.RoCEv2IPv4, nic400g.RoCEv2IPv6, nic400g.LeanNative, nic400g.UET},
		func(c *BudgetConfig) *nic400g.HeaderStack { return &c.Path.NIC.Stack }),
	wholeParam("pcie.gen", "", "PCIe generation", nic400g.Gen1, nic400g.Gen6,
		func(c *BudgetConfig) *nic400g.PCIeGen { return &c.Path.PCIe.Gen }),
	ruledParam("pcie.lanes", "", "PCIe lanes", "1, 2, 4, 8 or 16", 1, 16, powerOfTwo[uint32],
		func(c *BudgetConfig) *uint32 { return &c.Path.PCIe.Lanes }),
	ruledParam("pcie.mps", "B", "max payload size", "a power of two from 128 to 4096", 128, 4096, powerOfTwo[uint32],
		func(c *BudgetConfig) *uint32 { return &c.Path.PCIe.MPS }),
	wholeParam("pcie.one_way_ps", "ps", "one-way PCIe latency", 0, budgetMaxLatency,
		func(c *BudgetConfig) *rtlmodel.Time { return &c.Path.PCIe.OneWay }),
	wholeParam("latency.payload", "B", "RDMA WRITE payload of the latency budgets (at most nic.mtu)", 0, nic400g.MaxMTU,
		func(c *BudgetConfig) *int { return &c.Payload }),
	wholeParam("scale.qps", "", "QPs per NIC", 1, budgetMaxQPs,
		func(c *BudgetConfig) *int { return &c.QPs }),
	wholeParam("scale.endpoints", "", "forwarding table endpoints", 1, budgetMaxEndpoints,
		func(c *BudgetConfig) *int { return &c.Endpoints }),
	wholeParam("scale.rails", "", "planes of a rail-optimized fabric", 1, budgetMaxRails,
		func(c *BudgetConfig) *int { return &c.Rails }),
}

// powerOfTwo reports whether v is a power of two.
func powerOfTwo[T ~uint32](v T) bool { return v != 0 && v&(v-1) == 0 }

// pipesParam is switch.pipes: a divisor of the switch's SerDes cores, the
// port plan rebuilt on that many pipes so that the two agree.
func pipesParam() budgetParam {
	var divisors []string
	for n := 1; n <= budgetCores; n++ {
		if budgetCores%n == 0 {
			divisors = append(divisors, fmt.Sprint(n))
		}
	}
	allowed := fmt.Sprintf("%s or %s (the %d SerDes cores split evenly; the port plan follows)",
		strings.Join(divisors[:len(divisors)-1], ", "), divisors[len(divisors)-1], budgetCores)
	p := ruledParam("switch.pipes", "", "packet-processing pipes", allowed, 1, budgetCores,
		func(n int) bool { return budgetCores%n == 0 },
		func(c *BudgetConfig) *int { return &c.Path.Switch.Pipes.Pipes })
	setPipes := p.set
	p.set = func(c *BudgetConfig, v string) error {
		if err := setPipes(c, v); err != nil {
			return err
		}
		plan, err := replan(c.Path.Switch.Plan, c.Path.Switch.Pipes.Pipes)
		if err != nil {
			return &BudgetParamError{Name: p.name, Value: v, Reason: err.Error()}
		}
		c.Path.Switch.Plan = plan
		return nil
	}
	return p
}

// replan builds the ports of plan again on the given number of pipes.
func replan(plan *switchasic.PortPlan, pipes int) (*switchasic.PortPlan, error) {
	var groups []switchasic.PortGroup
	for _, p := range plan.Ports() {
		if n := len(groups); n > 0 && groups[n-1].Lanes == int(p.Lanes) {
			groups[n-1].Count++
			continue
		}
		groups = append(groups, switchasic.PortGroup{Count: 1, Lanes: int(p.Lanes)})
	}
	return switchasic.NewPortPlan(plan.TotalLanes(), pipes, groups...)
}

// BudgetParams describes every parameter Set accepts: name, unit, and
// what it is with the values it takes.
func BudgetParams() [][3]string {
	out := make([][3]string, 0, len(budgetParams))
	for _, p := range budgetParams {
		out = append(out, [3]string{p.name, p.unit, p.meaning()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

// Set changes one parameter by name. A value outside the parameter's
// range is a *BudgetParamError; an unknown name is an error that lists
// the known ones.
func (c *BudgetConfig) Set(name, value string) error {
	for _, p := range budgetParams {
		if p.name == name {
			return p.set(c, strings.TrimSpace(value))
		}
	}
	names := make([]string, 0, len(budgetParams))
	for _, p := range budgetParams {
		names = append(names, p.name)
	}
	sort.Strings(names)
	return fmt.Errorf("unknown budget parameter %q (known: %s)", name, strings.Join(names, ", "))
}
