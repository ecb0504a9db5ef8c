package fabric

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/nic400g"
	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/switchasic"
)

// Build builds the fabric cfg describes: every switch from cfg's template
// with a port plan of only the ports it uses (at the lane width of
// cfg.PortMode, FACTS 4), cables of the length given per tier, endpoint i
// (configured by nic(i)) on its leaf port, and forwarding tables with ECMP
// up/down routes (FACTS 5.4 [R54]): a leaf sends everything not its own
// over all its uplinks as one group, a spine or aggregation switch sends
// down when the destination is below it and up over all its uplinks
// otherwise, a core sends down to the destination's pod. Switch n (tiers
// in order) is seeded with the template's seed + 7919·n. A NIC that runs
// HPCC with no Config.HPCCBaseRTT gets the fabric's largest unloaded round
// trip, the artifact's one T for the network (FACTS 2.2).
func Build(cfg TopologyConfig, nic func(i int) nic400g.Config, opts rtlmodel.Options) (*Cluster, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if nic == nil {
		return nil, fmt.Errorf("fabric: Build needs a NIC configuration function")
	}
	s := newShape(cfg)
	return s.build(nic, opts, s.switchConfig)
}

// build builds the shape's switches (each configured by config), cables
// them, attaches endpoint i (configured by nic(i), with the fabric's
// largest unloaded round trip as its HPCC base RTT when it runs HPCC and
// names none: withHPCCBaseRTT) to its leaf port and programs every
// forwarding table.
func (s *shape) build(nic func(i int) nic400g.Config, opts rtlmodel.Options, config func(sw int) (switchasic.Config, error)) (*Cluster, error) {
	c := &Cluster{Engine: rtlmodel.NewEngine(opts), Pool: &packet.DescPool{}, HostsPerLeaf: s.h, Planes: max(s.cfg.Rails, 1)}
	sws := make([]*switchasic.Switch, s.numSwitches())
	for sw := range sws {
		sc, err := config(sw)
		if err != nil {
			return nil, err
		}
		if err := c.Engine.Partition(s.name(sw)); err != nil {
			return nil, err
		}
		if sws[sw], err = switchasic.New(c.Engine, s.name(sw), sc, c.Pool); err != nil {
			return nil, fmt.Errorf("fabric: %s: %w", s.name(sw), err)
		}
	}
	tiers := []*[]*switchasic.Switch{&c.Leaves, &c.Spines, &c.Cores}
	for t, ts := range s.tiers {
		*tiers[t] = sws[ts.first : ts.first+ts.count]
	}
	for sw := range sws {
		for p := 0; p < s.ports(sw); p++ {
			if peer, pp := s.peer(sw, p); peer >= 0 {
				if err := sws[sw].LinkTo(p, sws[peer], pp); err != nil {
					return nil, err
				}
			}
		}
	}
	path, ok := s.longestPath(sws)
	nic = withHPCCBaseRTT(path, ok, nic)
	n := s.cfg.Endpoints()
	c.NICs = make([]*nic400g.NIC, n)
	for d := 0; d < n; d++ {
		leaf, port := s.locate(d)
		if err := c.Engine.Partition(fmt.Sprintf("nic%d", d)); err != nil {
			return nil, err
		}
		nc, err := attachNIC(c.Engine, c.Pool, sws[leaf], port, uint32(d), nic(d))
		if err != nil {
			return nil, err
		}
		c.NICs[d] = nc
	}
	for sw := range sws {
		if err := s.program(sw, sws[sw].Forwarding(), n); err != nil {
			return nil, fmt.Errorf("fabric: %s: %w", s.name(sw), err)
		}
	}
	if err := c.Engine.SetSweepOrder(s.sweepOrder(n)); err != nil {
		return nil, err
	}
	return c, nil
}

// sweepOrder is the order the kernel's sweeps take the devices in: each
// leaf followed by its endpoints' NICs, then the switches above. A NIC so
// runs right after its leaf and finds in the caches the frames the leaf
// has just sent it.
func (s *shape) sweepOrder(endpoints int) []string {
	under := make([][]int, s.numLeaves())
	for d := 0; d < endpoints; d++ {
		leaf, _ := s.locate(d)
		under[leaf] = append(under[leaf], d)
	}
	order := make([]string, 0, s.numSwitches()+endpoints)
	for leaf, nics := range under {
		order = append(order, s.name(leaf))
		for _, d := range nics {
			order = append(order, fmt.Sprintf("nic%d", d))
		}
	}
	for sw := s.numLeaves(); sw < s.numSwitches(); sw++ {
		order = append(order, s.name(sw))
	}
	return order
}

// switchConfig is switch sw's configuration: the template with a port plan
// of its ports, the traffic manager sized to them, its cables and seed.
func (s *shape) switchConfig(sw int) (switchasic.Config, error) {
	sc := s.cfg.template()
	m, err := s.cfg.portMode()
	if err != nil {
		return sc, err
	}
	n := s.ports(sw)
	lanes := switchasic.ChipLanes
	if sc.Plan != nil {
		lanes = sc.Plan.TotalLanes()
	}
	if sc.Plan, err = switchasic.NewPortPlan(lanes, sc.Pipes.Pipes, switchasic.PortGroup{Count: n, Lanes: m.Lanes}); err != nil {
		return sc, fmt.Errorf("fabric: %s: %w", s.name(sw), err)
	}
	sc.TM.Ports = n
	if len(sc.TM.PFC.PortSpeedsGbps) != 0 {
		sc.TM.PFC.PortSpeedsGbps = make([]int, n)
		for p := range sc.TM.PFC.PortSpeedsGbps {
			sc.TM.PFC.PortSpeedsGbps[p] = 100 * m.Lanes
		}
	}
	sc.Seed += uint64(sw) * 7919
	sc.MAC[2], sc.MAC[3] = byte(sw>>8), byte(sw) // each switch its own ports' addresses
	sc.PortCableMillimetres = map[int]uint64{}
	t := s.tierOf(sw)
	for p := 0; p < n; p++ {
		peer, _ := s.peer(sw, p)
		mm := s.cfg.HostCableMillimetres
		if peer >= 0 {
			mm = s.cfg.Tier1CableMillimetres
			if min(t, s.tierOf(peer)) == 1 {
				mm = s.cfg.Tier2CableMillimetres
			}
		}
		if mm != 0 {
			sc.PortCableMillimetres[p] = mm
		}
	}
	return sc, nil
}

// program fills switch sw's forwarding table for endpoints 0..n-1: its
// groups in order, then a route per endpoint it can reach.
func (s *shape) program(sw int, fwd *switchasic.ForwardingTable, n int) error {
	ids := make([]int, len(s.groups[sw]))
	members := make([]int, 0, s.ports(sw))
	for g, m := range s.groups[sw] {
		members = members[:0]
		for _, p := range m {
			members = append(members, int(p))
		}
		id, err := fwd.AddGroup(members)
		if err != nil {
			return err
		}
		ids[g] = id
	}
	for d := 0; d < n; d++ {
		leaf, port := s.locate(d)
		g := port
		if leaf != sw {
			g = s.route(sw, leaf)
		}
		if g < 0 {
			continue
		}
		if err := fwd.SetRoute(uint32(d), ids[g]); err != nil {
			return err
		}
	}
	return nil
}

// Switches returns every switch, tier by tier: leaves, spines, cores.
func (c *Cluster) Switches() []*switchasic.Switch {
	out := make([]*switchasic.Switch, 0, len(c.Leaves)+len(c.Spines)+len(c.Cores))
	out = append(out, c.Leaves...)
	out = append(out, c.Spines...)
	return append(out, c.Cores...)
}

// lookahead is the least time a frame takes from one device to another:
// the shortest minimum latency of any wire. Each device runs in a
// partition of its own, so it is the window in which they may run apart.
func (c *Cluster) lookahead() rtlmodel.Time {
	t := rtlmodel.Forever
	for _, sw := range c.Switches() {
		for i := range sw.Ports() {
			t = min(t, sw.TxPhy(i).Wire().MinLatency())
		}
	}
	for _, n := range c.NICs {
		t = min(t, n.Phy().Wire().MinLatency())
	}
	return t
}
