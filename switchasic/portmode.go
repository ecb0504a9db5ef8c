package switchasic

import (
	"fmt"
	"strings"
)

// PortMode names one of the uniform port modes of a 51.2 Tb/s chip on
// ChipLanes lanes (FACTS 4: TH5 64x800G, 128x400G, 256x200G [R32][R33][R34];
// Teralynx 10 512x100GbE [R38], S).
type PortMode struct {
	Name  string // "64x800G", ...
	Lanes int    // lanes per port
}

// The standard modes. Each uses all ChipLanes lanes.
var (
	// PortMode64x800G is 64 ports of 8 lanes (FACTS 4 TH5, Spectrum-4 [R32][R35], S).
	PortMode64x800G = PortMode{"64x800G", 8}
	// PortMode128x400G is 128 ports of 4 lanes (FACTS 4 TH5, Spectrum-4 [R32][R35], S).
	PortMode128x400G = PortMode{"128x400G", 4}
	// PortMode256x200G is 256 ports of 2 lanes (FACTS 4 TH5 [R32], S).
	PortMode256x200G = PortMode{"256x200G", 2}
	// PortMode512x100G is 512 ports of 1 lane (FACTS 4 Teralynx 10 [R38], S).
	PortMode512x100G = PortMode{"512x100G", 1}
)

// StandardPortModes lists the standard modes, widest port first.
var StandardPortModes = []PortMode{PortMode64x800G, PortMode128x400G, PortMode256x200G, PortMode512x100G}

// Ports is the number of ports the mode gives on ChipLanes lanes.
func (m PortMode) Ports() int { return ChipLanes / m.Lanes }

// Plan builds the mode's PortPlan on ChipLanes lanes and the given number
// of pipes; it fails when pipes does not divide the 64 SerDes cores.
func (m PortMode) Plan(pipes int) (*PortPlan, error) {
	return NewPortPlan(ChipLanes, pipes, PortGroup{Count: m.Ports(), Lanes: m.Lanes})
}

// ParsePortMode finds a standard mode by name ("128x400G", case
// insensitive).
func ParsePortMode(name string) (PortMode, error) {
	for _, m := range StandardPortModes {
		if strings.EqualFold(m.Name, name) {
			return m, nil
		}
	}
	names := make([]string, len(StandardPortModes))
	for i, m := range StandardPortModes {
		names[i] = m.Name
	}
	return PortMode{}, fmt.Errorf("switchasic: unknown port mode %q (want one of %s)", name, strings.Join(names, ", "))
}

// mustPlan builds a standard mode's plan; an invalid pipe count is a caller
// bug here, since the error-returning path is PortMode.Plan.
func mustPlan(m PortMode, pipes int) *PortPlan {
	p, err := m.Plan(pipes)
	if err != nil {
		panic(err)
	}
	return p
}

// Mode64x800G returns 64 x 800G on ChipLanes lanes split among pipes
// (FACTS 4 [R32][R35], S). It panics when pipes does not divide the 64
// SerDes cores; use PortMode64x800G.Plan for an error instead.
func Mode64x800G(pipes int) *PortPlan { return mustPlan(PortMode64x800G, pipes) }

// Mode128x400G returns 128 x 400G on ChipLanes lanes split among pipes
// (FACTS 4 [R32][R35], S). It panics when pipes does not divide the 64
// SerDes cores; use PortMode128x400G.Plan for an error instead.
func Mode128x400G(pipes int) *PortPlan { return mustPlan(PortMode128x400G, pipes) }

// Mode256x200G returns 256 x 200G on ChipLanes lanes split among pipes
// (FACTS 4 [R32], S). It panics when pipes does not divide the 64 SerDes
// cores; use PortMode256x200G.Plan for an error instead.
func Mode256x200G(pipes int) *PortPlan { return mustPlan(PortMode256x200G, pipes) }

// Mode512x100G returns 512 x 100G on ChipLanes lanes split among pipes
// (FACTS 4 Teralynx 10 [R38], S). It panics when pipes does not divide the
// 64 SerDes cores; use PortMode512x100G.Plan for an error instead.
func Mode512x100G(pipes int) *PortPlan { return mustPlan(PortMode512x100G, pipes) }
