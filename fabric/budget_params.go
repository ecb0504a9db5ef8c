package fabric

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/fabricmodel/fabricmodel/nic400g"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/serdes"
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

// budgetParam is one parameter --set can change.
type budgetParam struct {
	name, unit, doc string
	u64             func(c *BudgetConfig) *uint64
	i               func(c *BudgetConfig) *int
	t               func(c *BudgetConfig) *rtlmodel.Time
	u32             func(c *BudgetConfig) *uint32
	set             func(c *BudgetConfig, v string) error // for the rest
}

var budgetParams = []budgetParam{
	{name: "switch.clock_ps", unit: "ps", doc: "pipe clock period", t: func(c *BudgetConfig) *rtlmodel.Time { return &c.Path.Switch.Pipes.ClockPeriod }},
	{name: "switch.pipes", doc: "packet-processing pipes", i: func(c *BudgetConfig) *int { return &c.Path.Switch.Pipes.Pipes }},
	{name: "switch.packets_per_cycle", doc: "packets per pipe per cycle", i: func(c *BudgetConfig) *int { return &c.Path.Switch.Pipes.PacketsPerCycle }},
	{name: "switch.ingress_cycles", unit: "cycles", doc: "parser and forwarding pipeline", u64: func(c *BudgetConfig) *uint64 { return &c.Path.Switch.IngressCycles }},
	{name: "switch.mmu_cycles", unit: "cycles", doc: "traffic manager admit, queue, schedule", u64: func(c *BudgetConfig) *uint64 { return &c.Path.Switch.MMUCycles }},
	{name: "switch.egress_cycles", unit: "cycles", doc: "egress pipeline", u64: func(c *BudgetConfig) *uint64 { return &c.Path.Switch.EgressCycles }},
	{name: "phy.tx_ps", unit: "ps", doc: "TX MAC/PCS/FEC encode/SerDes", t: func(c *BudgetConfig) *rtlmodel.Time { return &c.Path.Switch.PhyTx }},
	{name: "phy.fec_decode_ps", unit: "ps", doc: "RX FEC decode pipeline after the codeword fill", t: func(c *BudgetConfig) *rtlmodel.Time { return &c.Path.Switch.PhyRx }},
	{name: "phy.cable_mm", unit: "mm", doc: "cable length", u64: func(c *BudgetConfig) *uint64 { return &c.Path.Switch.CableMillimetres }},
	{name: "phy.interleave", doc: "RS(544,514) codeword interleave (1 or 2)", set: func(c *BudgetConfig, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil {
			return err
		}
		il, err := serdes.NewInterleave(n)
		c.Path.Switch.Interleave = il
		return err
	}},
	{name: "switch.cut_through_bytes", unit: "B", doc: "bytes before an ingress passes a frame on (0: store-and-forward)", i: func(c *BudgetConfig) *int { return &c.Path.Switch.CutThroughBytes }},
	{name: "nic.clock_ps", unit: "ps", doc: "NIC core clock period", t: func(c *BudgetConfig) *rtlmodel.Time { return &c.Path.NIC.ClockPeriod }},
	{name: "nic.tx_cycles", unit: "cycles", doc: "NIC transmit pipeline", u64: func(c *BudgetConfig) *uint64 { return &c.Path.NIC.TxCycles }},
	{name: "nic.rx_cycles", unit: "cycles", doc: "NIC receive pipeline", u64: func(c *BudgetConfig) *uint64 { return &c.Path.NIC.RxCycles }},
	{name: "nic.mtu", unit: "B", doc: "payload bytes per packet", i: func(c *BudgetConfig) *int { return &c.Path.NIC.MTU }},
	{name: "nic.stack", doc: "header stack: roce-ipv4, roce-ipv6, ib, uet", set: func(c *BudgetConfig, v string) error {
		m := map[string]nic400g.HeaderStack{"roce-ipv4": nic400g.RoCEv2IPv4, "roce-ipv6": nic400g.RoCEv2IPv6, "ib": nic400g.LeanNative, "uet": nic400g.UET}
		s, ok := m[v]
		if !ok {
			return fmt.Errorf("one of roce-ipv4, roce-ipv6, ib, uet")
		}
		c.Path.NIC.Stack = s
		return nil
	}},
	{name: "pcie.gen", doc: "PCIe generation (3 to 6)", set: func(c *BudgetConfig, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil {
			return err
		}
		c.Path.PCIe.Gen = nic400g.PCIeGen(n)
		return nil
	}},
	{name: "pcie.lanes", doc: "PCIe lanes", u32: func(c *BudgetConfig) *uint32 { return &c.Path.PCIe.Lanes }},
	{name: "pcie.mps", unit: "B", doc: "max payload size", u32: func(c *BudgetConfig) *uint32 { return &c.Path.PCIe.MPS }},
	{name: "pcie.one_way_ps", unit: "ps", doc: "one-way PCIe latency", t: func(c *BudgetConfig) *rtlmodel.Time { return &c.Path.PCIe.OneWay }},
	{name: "latency.payload", unit: "B", doc: "RDMA WRITE payload of the latency budgets", i: func(c *BudgetConfig) *int { return &c.Payload }},
	{name: "scale.qps", doc: "QPs per NIC", i: func(c *BudgetConfig) *int { return &c.QPs }},
	{name: "scale.endpoints", doc: "forwarding table endpoints", i: func(c *BudgetConfig) *int { return &c.Endpoints }},
	{name: "scale.rails", doc: "planes of a rail-optimized fabric", i: func(c *BudgetConfig) *int { return &c.Rails }},
}

// BudgetParams describes every parameter Set accepts: name, unit, doc.
func BudgetParams() [][3]string {
	out := make([][3]string, 0, len(budgetParams))
	for _, p := range budgetParams {
		out = append(out, [3]string{p.name, p.unit, p.doc})
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

// Set changes one parameter by name (strict: an unknown name is an error
// that lists the known ones).
func (c *BudgetConfig) Set(name, value string) error {
	for _, p := range budgetParams {
		if p.name != name {
			continue
		}
		value = strings.TrimSpace(value)
		var err error
		switch {
		case p.u64 != nil:
			*p.u64(c), err = strconv.ParseUint(value, 10, 64)
		case p.i != nil:
			*p.i(c), err = strconv.Atoi(value)
		case p.t != nil:
			var v uint64
			v, err = strconv.ParseUint(value, 10, 64)
			*p.t(c) = rtlmodel.Time(v)
		case p.u32 != nil:
			var v uint64
			v, err = strconv.ParseUint(value, 10, 32)
			*p.u32(c) = uint32(v)
		default:
			err = p.set(c, value)
		}
		if err != nil {
			return fmt.Errorf("%s=%q: %v", name, value, err)
		}
		return nil
	}
	names := make([]string, 0, len(budgetParams))
	for _, p := range budgetParams {
		names = append(names, p.name)
	}
	sort.Strings(names)
	return fmt.Errorf("unknown budget parameter %q (known: %s)", name, strings.Join(names, ", "))
}
