package switchasic

import (
	"fmt"
	"strings"

	"github.com/fabricmodel/fabricmodel/serdes"
)

// ChipLanes is the number of 100G-class SerDes lanes of a 51.2 Tb/s switch:
// 512 x 106.25 Gb/s. FACTS 4: Tomahawk 5 has 512 x 100G PAM4 lanes in 64
// Peregrine cores of 8 [R34]; Spectrum-4 and Silicon One G200 have 512 x
// 112G-class lanes [R35][R40] (S).
const ChipLanes = 512

// CoreLanes is the number of lanes in one SerDes core (a TH5 Peregrine
// core, FACTS 4 [R34], S). A port never spans two cores.
const CoreLanes = 8

// PortGroup asks for Count ports of Lanes lanes each (1, 2, 4 or 8 lanes:
// 100G, 200G, 400G, 800G; FACTS 3 [R72]). {128, 4} is 128 x 400G.
type PortGroup struct {
	Count int // number of ports
	Lanes int // lanes per port: 1, 2, 4 or 8
}

// Port is one front-panel port of a PortPlan.
type Port struct {
	Index     int              // port number, 0..NumPorts-1, in lane order
	FirstLane int              // first SerDes lane of the port
	Lanes     serdes.LaneGroup // its lane group (speed)
	Pipe      int              // packet-processing pipe that serves it
}

// Core returns the SerDes core (CoreLanes lanes) that holds the port.
func (p Port) Core() int { return p.FirstLane / CoreLanes }

// LineRate is the port's rate on the wire, lanes x 106.25 Gb/s (FACTS 3
// [R23], S).
func (p Port) LineRate() serdes.Rate { return p.Lanes.LineRate() }

// MACRate is the port's MAC data rate, lanes x 100 Gb/s (FACTS 3 [R23],
// S): the rate the FACTS 1.5 packet timing is computed at.
func (p Port) MACRate() serdes.Rate { return p.Lanes.MACRate() }

// PortPlan is a validated partition of a chip's SerDes lanes into ports and
// of the ports into pipes. Lanes are split evenly among the pipes in
// contiguous ranges of whole SerDes cores, so each pipe serves the ports on
// its own cores (FACTS 4 TH5 layout [R34]; the pipe split is E, since no
// 51.2T part publishes its pipe count). Build one with NewPortPlan or a
// standard mode; it is read-only afterwards.
type PortPlan struct {
	totalLanes int
	pipes      int
	usedLanes  int
	ports      []Port
	pipePorts  [][]int
}

// NewPortPlan places the groups' ports on lanes 0, 1, 2, ... in the order
// given, each port on the lanes right after the previous one, and assigns
// each port to the pipe owning its lanes. totalLanes must be a positive
// multiple of CoreLanes (ChipLanes for the 51.2T chip), pipes must divide
// the number of cores. It fails, naming the offending port, when the ports
// need more lanes than the chip has, when a port would cross a SerDes core,
// when a port does not start on a multiple of its own width (a 200G port on
// lanes 1-2), or when a group has a count below 1 or a lane count other than
// 1, 2, 4 or 8. Listing wider groups first always packs without gaps; mixes
// such as 32 x 800G + 64 x 400G are allowed. Lanes left over are unused.
func NewPortPlan(totalLanes int, pipes int, groups ...PortGroup) (*PortPlan, error) {
	if totalLanes <= 0 || totalLanes%CoreLanes != 0 {
		return nil, fmt.Errorf("switchasic: %d lanes is not a positive multiple of the %d-lane SerDes core", totalLanes, CoreLanes)
	}
	cores := totalLanes / CoreLanes
	if pipes <= 0 || cores%pipes != 0 {
		return nil, fmt.Errorf("switchasic: %d pipes cannot split %d SerDes cores evenly", pipes, cores)
	}
	if len(groups) == 0 {
		return nil, fmt.Errorf("switchasic: a port plan needs at least one port group")
	}
	need := 0
	for i, g := range groups {
		if g.Count <= 0 {
			return nil, fmt.Errorf("switchasic: port group %d asks for %d ports", i, g.Count)
		}
		if _, err := serdes.NewLaneGroup(g.Lanes); err != nil {
			return nil, fmt.Errorf("switchasic: port group %d: %w", i, err)
		}
		need += g.Count * g.Lanes
	}
	if need > totalLanes {
		return nil, fmt.Errorf("switchasic: the port groups need %d lanes, over the budget of %d", need, totalLanes)
	}
	lanesPerPipe := totalLanes / pipes
	p := &PortPlan{totalLanes: totalLanes, pipes: pipes, usedLanes: need, pipePorts: make([][]int, pipes)}
	lane := 0
	for gi, g := range groups {
		lg := serdes.LaneGroup(g.Lanes)
		for k := 0; k < g.Count; k++ {
			idx := len(p.ports)
			if lane/CoreLanes != (lane+g.Lanes-1)/CoreLanes {
				return nil, fmt.Errorf("switchasic: port %d (%v, group %d) on lanes %d-%d crosses SerDes core %d at lane %d",
					idx, lg, gi, lane, lane+g.Lanes-1, lane/CoreLanes, (lane/CoreLanes+1)*CoreLanes)
			}
			if lane%g.Lanes != 0 {
				return nil, fmt.Errorf("switchasic: port %d (%v, group %d) starts at lane %d, not a multiple of its %d lanes",
					idx, lg, gi, lane, g.Lanes)
			}
			pipe := lane / lanesPerPipe
			p.ports = append(p.ports, Port{Index: idx, FirstLane: lane, Lanes: lg, Pipe: pipe})
			p.pipePorts[pipe] = append(p.pipePorts[pipe], idx)
			lane += g.Lanes
		}
	}
	return p, nil
}

// Ports returns the ports in index order. The slice is the plan's own and
// must not be modified.
func (p *PortPlan) Ports() []Port { return p.ports }

// Port returns port i.
func (p *PortPlan) Port(i int) Port { return p.ports[i] }

// NumPorts is the number of ports.
func (p *PortPlan) NumPorts() int { return len(p.ports) }

// Pipes is the number of pipes the lanes are split among.
func (p *PortPlan) Pipes() int { return p.pipes }

// TotalLanes is the chip's lane count the plan was built for.
func (p *PortPlan) TotalLanes() int { return p.totalLanes }

// UsedLanes is the number of lanes the ports occupy.
func (p *PortPlan) UsedLanes() int { return p.usedLanes }

// PipePorts returns the indices of the ports pipe serves, in index order.
// The slice is the plan's own and must not be modified.
func (p *PortPlan) PipePorts(pipe int) []int { return p.pipePorts[pipe] }

// PipeMACRate is the sum of the MAC rates of the ports on pipe (FACTS 3
// [R23]: 100 Gb/s per lane), exact.
func (p *PortPlan) PipeMACRate(pipe int) serdes.Rate {
	lanes := 0
	for _, i := range p.pipePorts[pipe] {
		lanes += p.ports[i].Lanes.Lanes()
	}
	return serdes.LaneMACRate.Scale(serdes.IntRat(uint64(lanes)))
}

// MACRate is the sum of the MAC rates of all ports (51.2 Tb/s when all 512
// lanes are used, FACTS 4), exact.
func (p *PortPlan) MACRate() serdes.Rate {
	return serdes.LaneMACRate.Scale(serdes.IntRat(uint64(p.usedLanes)))
}

// String summarises the plan, e.g. "128x400G on 512/512 lanes, 8 pipes".
func (p *PortPlan) String() string {
	var parts []string
	for i := 0; i < len(p.ports); {
		j := i
		for j < len(p.ports) && p.ports[j].Lanes == p.ports[i].Lanes {
			j++
		}
		parts = append(parts, fmt.Sprintf("%dx%v", j-i, p.ports[i].Lanes))
		i = j
	}
	unit := "pipes"
	if p.pipes == 1 {
		unit = "pipe"
	}
	return fmt.Sprintf("%s on %d/%d lanes, %d %s", strings.Join(parts, "+"), p.usedLanes, p.totalLanes, p.pipes, unit)
}
