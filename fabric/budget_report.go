package fabric

import (
	"fmt"
	"math/big"
	"strconv"

	"github.com/fabricmodel/fabricmodel/nic400g"
	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/pipeline"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/serdes"
	"github.com/fabricmodel/fabricmodel/switchasic"
)

// BudgetSection is one table of a budget report. Every figure in it is
// computed from the models' parameters and functions.
type BudgetSection struct {
	Title   string     `json:"title"`
	Columns []string   `json:"columns"`
	Rows    [][]string `json:"rows"`
	// Latency sections: the total and the target in ns (0: none).
	TotalNS  float64 `json:"total_ns,omitempty"`
	TargetNS float64 `json:"target_ns,omitempty"`
}

// BudgetReport is the budget report: latency, throughput and scale.
type BudgetReport struct {
	Sections []BudgetSection `json:"sections"`
}

var latencyColumns = []string{"stage", "clock", "cycles", "ns", "cumulative ns", "source"}

// latencySection renders a budget as a section.
func latencySection(title string, b pipeline.Budget, target rtlmodel.Time) BudgetSection {
	s := BudgetSection{Title: title, Columns: latencyColumns, TotalNS: b.Total().Nanoseconds()}
	var cum rtlmodel.Time
	for _, st := range b {
		cum += st.Time()
		clock, cycles := "-", "-"
		if st.Clock != "" {
			clock, cycles = st.Clock, strconv.FormatUint(st.Cycles, 10)
		}
		s.Rows = append(s.Rows, []string{st.Name, clock, cycles, pipeline.FormatNS(st.Time()), pipeline.FormatNS(cum), st.Source})
	}
	total := []string{"total", "", "", pipeline.FormatNS(b.Total()), "", ""}
	s.Rows = append(s.Rows, total)
	if target > 0 {
		s.TargetNS = target.Nanoseconds()
		slack := int64(target) - int64(b.Total())
		s.Rows = append(s.Rows, []string{"target", "", "", pipeline.FormatNS(target), "", "FACTS 4 / 6.2 seed target"},
			[]string{"slack", "", "", fmt.Sprintf("%.3f", float64(slack)/1e3), "", ""})
	}
	return s
}

// ComputeBudget computes the whole report; a parameter out of its range
// (BudgetConfig.Validate) is an error before any model runs.
func ComputeBudget(c BudgetConfig) (*BudgetReport, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	r := &BudgetReport{}
	e := rtlmodel.NewEngine(rtlmodel.Options{})
	sw, err := switchasic.New(e, "sw", c.Path.Switch, &packet.DescPool{})
	if err != nil {
		return nil, err
	}
	frame := stackOf(c.Path.NIC.Stack).FrameBytes(c.Payload)
	r.Sections = append(r.Sections, latencySection(
		fmt.Sprintf("Switch port to port, %d B frame, first bit in to first bit out (unloaded)", frame),
		sw.PortToPortBudget(0, frame, 0), 260*rtlmodel.Nanosecond))
	for _, miss := range []bool{false, true} {
		b, err := WriteBudget(c.Path, c.Payload, 0, miss)
		if err != nil {
			return nil, err
		}
		cache := "QP context cached"
		if miss {
			cache = "QP context miss"
		}
		tx, rx := splitNIC(b)
		if !miss {
			r.Sections = append(r.Sections,
				latencySection("NIC transmit path: doorbell to first bit on the wire", tx, 0),
				latencySection("NIC receive path: first bit in to CQE visible", rx, 0))
		}
		r.Sections = append(r.Sections, latencySection(
			fmt.Sprintf("End to end: %d B inline RDMA WRITE, doorbell to CQE visible, one switch, %s", c.Payload, cache),
			b, 900*rtlmodel.Nanosecond))
	}
	tp, err := throughputSection(c, sw)
	if err != nil {
		return nil, err
	}
	r.Sections = append(r.Sections, tp...)
	sc, err := scaleSections(c)
	if err != nil {
		return nil, err
	}
	r.Sections = append(r.Sections, sc...)
	return r, nil
}

// splitNIC cuts the end-to-end budget into the sender's transmit path
// (up to its first bit on the wire) and the receiver's receive path.
func splitNIC(b pipeline.Budget) (tx, rx pipeline.Budget) {
	i := 0
	for ; i < len(b) && b[i].Name != "cable NIC A to switch"; i++ {
		tx = append(tx, b[i])
	}
	for ; i < len(b) && b[i].Name != "cable switch to NIC B"; i++ {
	}
	if i < len(b) {
		rx = append(rx, b[i+1:]...)
	}
	return tx, rx
}

func gbps(r serdes.Rate) string { return fmt.Sprintf("%.4f Gb/s", r.GbpsFloat()) }

func ratString(r *big.Rat, prec int) string {
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'f', prec, 64)
}

// throughputSection computes rates: lanes and FEC, headers, PCIe, switch.
func throughputSection(c BudgetConfig, sw *switchasic.Switch) ([]BudgetSection, error) {
	cols := []string{"quantity", "value", "source"}
	lanes := BudgetSection{Title: "SerDes, PCS and FEC rates", Columns: cols}
	lanes.Rows = append(lanes.Rows, []string{"lane: 53.125 GBd PAM4", gbps(serdes.LaneRate), "FACTS 3 [R23]"})
	for _, st := range serdes.RateChain(serdes.LaneMACRate) {
		lanes.Rows = append(lanes.Rows, []string{"100G lane, after " + st.Name, gbps(st.Rate), "serdes.RateChain (FACTS 3)"})
	}
	for _, g := range []serdes.LaneGroup{1, 2, 4, 8} {
		lanes.Rows = append(lanes.Rows, []string{fmt.Sprintf("%v port: MAC / line", g),
			fmt.Sprintf("%s / %s", gbps(g.MACRate()), gbps(g.LineRate())), "serdes.LaneGroup"})
	}
	am := serdes.AM400G.Overhead()
	lanes.Rows = append(lanes.Rows, []string{"400GBASE-R alignment markers", fmt.Sprintf("%.6f %% (carried by removed idles)", 100*am.Float64()), "serdes.AM400G (FACTS 3, U)"})

	hdr := BudgetSection{Title: fmt.Sprintf("Header overhead and goodput at 400 Gb/s, %d B payload", c.Path.NIC.MTU),
		Columns: []string{"stack", "overhead per wire slot", "efficiency", "goodput"}}
	for _, st := range []packet.Stack{packet.StackNativeIB, packet.StackRoCEv2IPv4, packet.StackRoCEv2IPv4VLAN,
		packet.StackRoCEv2IPv6, packet.StackRoCEv2IPv4First, packet.StackUETSmall, packet.StackUETStandard} {
		_, g := st.Goodput(400_000_000_000, c.Path.NIC.MTU)
		hdr.Rows = append(hdr.Rows, []string{st.Name, fmt.Sprintf("%d B", st.Overhead()),
			ratString(new(big.Rat).Mul(st.Efficiency(c.Path.NIC.MTU), big.NewRat(100, 1)), 2) + " %",
			fmt.Sprintf("%.1f Gb/s", g/1e9)})
	}

	pc := c.Path.PCIe
	if err := pc.Validate(); err != nil {
		return nil, err
	}
	pcie := BudgetSection{Title: fmt.Sprintf("PCIe %v x%d payload budget", pc.Gen, pc.Lanes), Columns: cols}
	raw, link := pc.RawRate(), pc.LinkRate()
	wr := pc.WritePayloadRate(pc.MPS)
	need := serdes.RateBPS(400_000_000_000)
	pcie.Rows = append(pcie.Rows,
		[]string{"raw rate per direction", fmt.Sprintf("%.2f GB/s", raw.GbpsFloat()/8), "nic400g.PCIeConfig (FACTS 5.2)"},
		[]string{"after link overhead", fmt.Sprintf("%.2f GB/s", link.GbpsFloat()/8), "nic400g.PCIeConfig"},
		[]string{fmt.Sprintf("posted-write payload at MPS %d", pc.MPS), fmt.Sprintf("%.2f GB/s", wr.GbpsFloat()/8), "TLP overhead (FACTS 5.2 [R47])"},
		[]string{"read payload", fmt.Sprintf("%.2f GB/s", pc.ReadPayloadRate().GbpsFloat()/8), "completion overhead"},
		[]string{"400 Gb/s of payload", fmt.Sprintf("%.1f %% of raw, %.1f %% of the MPS %d payload rate",
			100*need.GbpsFloat()/raw.GbpsFloat(), 100*need.GbpsFloat()/wr.GbpsFloat(), pc.MPS), "FACTS 5.2"})

	sp := c.Path.Switch.Pipes
	plan := c.Path.Switch.Plan
	swr := BudgetSection{Title: "Switch packet rate", Columns: cols}
	swr.Rows = append(swr.Rows,
		[]string{"ports", fmt.Sprintf("%d x %v (%s)", plan.NumPorts(), plan.Ports()[0].Lanes, gbps(plan.MACRate())), "switchasic.PortPlan"},
		[]string{"pipes x packets/cycle @ clock", fmt.Sprintf("%d x %d @ %.3f GHz", sp.Pipes, sp.PacketsPerCycle, sp.ClockHz()/1e9), "switchasic.PipeConfig (E)"},
		[]string{"packet rate, whole chip", fmt.Sprintf("%.1f Gpps", sp.PacketRate()/1e9), "pipes x packets/cycle / clock"},
		[]string{"packet rate per pipe", fmt.Sprintf("%.1f Gpps", sp.PacketRate()/float64(sp.Pipes)/1e9), ""},
		[]string{"smallest wire slot at line rate", fmt.Sprintf("%d B (frame %d B)", switchasic.MinWireSlotAtLineRate(plan, sp),
			switchasic.MinWireSlotAtLineRate(plan, sp)-20), "switchasic.MinWireSlotAtLineRate"},
		[]string{"64 B frames at line rate need", fmt.Sprintf("%.1f Gpps", plan.MACRate().GbpsFloat()*1e9/8/84/1e9), "84 B wire slot (FACTS 1.5)"})
	_ = sw
	return []BudgetSection{lanes, hdr, pcie, swr}, nil
}

// scaleSections computes memory and reach.
func scaleSections(c BudgetConfig) ([]BudgetSection, error) {
	cols := []string{"quantity", "value", "source"}
	store, err := nic400g.NewQPStore(c.QPs, nic400g.DefaultHostContextBytes)
	if err != nil {
		return nil, err
	}
	qc := c.Path.NIC.QPCache
	mem := BudgetSection{Title: fmt.Sprintf("QP contexts for %d QPs", c.QPs), Columns: cols}
	mem.Rows = append(mem.Rows,
		[]string{"host-memory backing store", fmt.Sprintf("%.1f MB (%d B per QP)", float64(store.HostBytes())/1e6, store.HostContextBytes()), "FACTS 5.1 [R46]"},
		[]string{"on-chip cache", fmt.Sprintf("%d sets x %d ways = %d contexts, %.1f MB", qc.Sets, qc.Ways, qc.Sets*qc.Ways,
			float64(qc.Sets*qc.Ways*store.HostContextBytes())/1e6), "nic400g.QPCacheConfig"},
		[]string{"model memory per idle QP", fmt.Sprintf("%d B (%.1f MB in all)", store.ModelBytesPerQP(), float64(store.ModelBytes())/1e6), "nic400g.QPStore"})
	fwd := switchasic.NewForwardingTable(c.Endpoints)
	fw := BudgetSection{Title: fmt.Sprintf("Forwarding for %d endpoints", c.Endpoints), Columns: cols}
	fw.Rows = append(fw.Rows,
		[]string{"route table", fmt.Sprintf("%d entries x %d bits = %.1f KiB", c.Endpoints, switchasic.RouteEntryBits,
			float64(c.Endpoints*switchasic.RouteEntryBits)/8/1024), "switchasic.ForwardingTable"},
		[]string{"hardware bits, routes and ECMP members", fmt.Sprintf("%d (%.1f KiB) before groups; each member adds %d bits",
			fwd.HardwareBits(), float64(fwd.HardwareBits())/8/1024, switchasic.MemberEntryBits), "switchasic.ForwardingTable"})
	reach := BudgetSection{Title: "Endpoints reachable", Columns: []string{"radix", "2-tier k^2/2", "3-tier k^3/4",
		fmt.Sprintf("%d rails of 2-tier", c.Rails), "vs 49,151 IB unicast LIDs (3-tier)"}}
	const lids = 0xBFFF
	for _, k := range []int{64, 128, 256, 512} {
		two, three := k*k/2, k*k*k/4
		reach.Rows = append(reach.Rows, []string{strconv.Itoa(k), strconv.Itoa(two), strconv.Itoa(three),
			strconv.Itoa(c.Rails * two), fmt.Sprintf("%.2fx", float64(three)/lids)})
	}
	return []BudgetSection{mem, fw, reach}, nil
}
