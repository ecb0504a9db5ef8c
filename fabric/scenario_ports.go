package fabric

import (
	"slices"

	"github.com/fabricmodel/fabricmodel/switchasic"
)

// switchPortCounts returns the port counts the fabric's switches have,
// each once, least first: a built switch's traffic manager has one port
// per cabled port (shape.switchConfig), not the chip's 128, and reserves
// PFC headroom for those alone. The topology must be valid.
func (s *Scenario) switchPortCounts() []int {
	sh := newShape(s.Topology.TopologyConfig)
	var counts []int
	for sw := range sh.numSwitches() {
		if n := sh.ports(sw); !slices.Contains(counts, n) {
			counts = append(counts, n)
		}
	}
	slices.Sort(counts)
	return counts
}

// withPorts returns the switch template's traffic manager sized to ports
// ports, as shape.switchConfig sizes each switch's.
func withPorts(tm switchasic.TMConfig, ports int) switchasic.TMConfig {
	tm.Ports = ports
	return tm
}
