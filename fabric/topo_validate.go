package fabric

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fabricmodel/fabricmodel/switchasic"
)

// Bounds on a topology's size besides the endpoints the forwarding tables
// hold (switchasic.DefaultMaxEndpoints). Every switch and every port is a
// model object that is built and swept, so a description far beyond any
// fabric the model can hold is refused before it is laid out.
const (
	// maxSwitches is the most switches a topology may have: a
	// non-blocking fabric of the most endpoints needs far fewer (a fat
	// tree of k = 80 and 128,000 hosts has 8,000).
	maxSwitches = 1 << 16
	// maxSwitchPorts is the most switch ports over all switches: 8 per
	// endpoint at the endpoint limit, where a non-blocking fat tree uses
	// 5 per host and a non-blocking leaf-spine 3.
	maxSwitchPorts = 1 << 20
)

// kindKeys are, per kind of topology, the keys that only some kinds take;
// one of them set on a kind that does not take it is an error rather
// than silently ignored.
var kindKeys = map[string][]string{
	KindLeafSpine: {"leaves", "spines", "hosts_per_leaf", "links_per_spine"},
	KindFatTree:   {"k", "hosts_per_leaf", "tier2_cable_mm"},
	KindRails:     {"leaves", "spines", "hosts_per_leaf", "links_per_spine", "rails"},
}

// Validate checks the description; the error names the field at fault
// (by its YAML key) or the limit it breaks: a key of another kind of
// topology, a switch needing more ports than Radix or the port mode has,
// more endpoints than the forwarding tables hold
// (switchasic.DefaultMaxEndpoints, FACTS 5.3), or more switches or switch
// ports than the model builds (65,536 and 1,048,576). Every count is
// bounded before it is multiplied, so no product overflows.
func (c TopologyConfig) Validate() error {
	m, err := c.portMode()
	if err != nil {
		return topologyFault("port_mode", ": %v", err)
	}
	if c.Radix < 0 || c.Radix > m.Ports() {
		return topologyFault("radix", " %d: the %s mode has 1 to %d ports", c.Radix, m.Name, m.Ports())
	}
	if _, ok := kindKeys[c.Kind]; !ok {
		return topologyFault("kind", " %q: want %q, %q or %q", c.Kind, KindLeafSpine, KindFatTree, KindRails)
	}
	if err := c.checkForeignKeys(); err != nil {
		return err
	}
	R := c.radix(m)
	if err := c.checkCounts(R, m.Name); err != nil {
		return err
	}
	leafPorts, spinePorts, corePorts := c.switchPorts()
	for _, t := range []struct {
		name  string
		ports int
	}{{"leaf", leafPorts}, {"spine", spinePorts}, {"core", corePorts}} {
		if t.ports > R {
			return topologyFault("", "%s: a %s switch needs %d ports, over the radix of %d (%s)", c.Kind, t.name, t.ports, R, m.Name)
		}
	}
	if n := c.Endpoints(); n > switchasic.DefaultMaxEndpoints {
		return topologyFault("", "%s has %d endpoints (ids 0..%d); the forwarding tables hold %d (switchasic.DefaultMaxEndpoints, FACTS 5.3)",
			c.Kind, n, n-1, switchasic.DefaultMaxEndpoints)
	}
	switches, ports := c.size()
	if switches > maxSwitches {
		return topologyFault("", "%s has %d switches; the model builds at most %d", c.Kind, switches, maxSwitches)
	}
	if ports > maxSwitchPorts {
		return topologyFault("", "%s has %d switch ports; the model builds at most %d", c.Kind, ports, maxSwitchPorts)
	}
	return nil
}

// checkForeignKeys rejects a key set on a kind that does not take it (k
// on a leaf-spine, leaves on a fat tree), naming the key.
func (c TopologyConfig) checkForeignKeys() error {
	own := kindKeys[c.Kind]
	for _, f := range []struct {
		key string
		set bool
		v   any
	}{
		{"leaves", c.Leaves != 0, c.Leaves}, {"spines", c.Spines != 0, c.Spines},
		{"hosts_per_leaf", c.HostsPerLeaf != 0, c.HostsPerLeaf}, {"links_per_spine", c.LinksPerSpine != 0, c.LinksPerSpine},
		{"k", c.K != 0, c.K}, {"rails", c.Rails != 0, c.Rails}, {"tier2_cable_mm", c.Tier2CableMillimetres != 0, c.Tier2CableMillimetres},
	} {
		if !f.set || slices.Contains(own, f.key) {
			continue
		}
		var kinds []string
		for _, k := range []string{KindLeafSpine, KindFatTree, KindRails} {
			if slices.Contains(kindKeys[k], f.key) {
				kinds = append(kinds, k)
			}
		}
		return topologyFault(f.key, " %v: kind %s has no %s (a key of kind %s)",
			f.v, c.Kind, f.key, strings.Join(kinds, " and "))
	}
	return nil
}

// checkCounts checks each count of the kind on its own: within its least
// value and what a switch of radix ports (or the endpoint limit) allows,
// so that the products of the counts cannot overflow.
func (c TopologyConfig) checkCounts(radix int, mode string) error {
	perSwitch := fmt.Sprintf("a %s switch has %d ports here", mode, radix)
	type count struct {
		key         string
		v, least    int
		most        int
		least0, why string // least0: what 0 means when least is 0
	}
	var counts []count
	switch c.Kind {
	case KindFatTree:
		// k over the radix is the port check's (a core has k ports)
		if c.K < 2 || c.K%2 != 0 {
			return topologyFault("k", " %d: a fat tree needs an even k of at least 2", c.K)
		}
		counts = []count{{"hosts_per_leaf", c.HostsPerLeaf, 0, radix, "k/2", "an edge switch has a port per host"}}
	default:
		counts = []count{
			{"leaves", c.Leaves, 1, radix, "", "a spine has a port per leaf"},
			{"spines", c.Spines, 1, radix, "", "a leaf has a port per spine"},
			{"hosts_per_leaf", c.HostsPerLeaf, 1, radix, "", "a leaf has a port per host"},
			{"links_per_spine", c.LinksPerSpine, 0, radix, "one link", "a leaf has a port per link to a spine"},
		}
		if c.Kind == KindRails {
			counts = append(counts, count{"rails", c.Rails, 1, switchasic.DefaultMaxEndpoints, "",
				"every rail has an endpoint per server, and the forwarding tables hold " + fmt.Sprint(switchasic.DefaultMaxEndpoints)})
		}
	}
	for _, n := range counts {
		if n.v >= n.least && n.v <= n.most {
			continue
		}
		lo := fmt.Sprint(n.least)
		if n.least0 != "" {
			lo = fmt.Sprintf("0 (%s)", n.least0)
		}
		why := n.why
		if n.most == radix {
			why += "; " + perSwitch
		}
		return topologyFault(n.key, " %d: it must be %s to %d for kind %q (%s)", n.v, lo, n.most, c.Kind, why)
	}
	return nil
}

// switchPorts is the ports a leaf (edge), spine (aggregation) and core
// switch need, for counts checkCounts accepted.
func (c TopologyConfig) switchPorts() (leaf, spine, core int) {
	if c.Kind == KindFatTree {
		return c.hostsPerLeaf() + c.K/2, c.K, c.K
	}
	L := c.linksPerSpine()
	return c.HostsPerLeaf + c.Spines*L, c.Leaves * L, 0
}

// size is the number of switches and of switch ports over all of them,
// for counts checkCounts accepted.
func (c TopologyConfig) size() (switches, ports int) {
	leaf, spine, core := c.switchPorts()
	if c.Kind == KindFatTree {
		E := c.K / 2
		return 2*c.K*E + E*E, c.K*E*(leaf+spine) + E*E*core
	}
	planes := max(c.Rails, 1)
	return planes * (c.Leaves + c.Spines), planes * (c.Leaves*leaf + c.Spines*spine)
}
