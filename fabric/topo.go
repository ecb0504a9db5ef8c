package fabric

import "github.com/fabricmodel/fabricmodel/switchasic"

// Topology kinds a TopologyConfig can name.
const (
	// KindLeafSpine is a two-tier leaf-spine (FACTS 5.4: k²/2 hosts
	// non-blocking at radix k, E).
	KindLeafSpine = "leafspine"
	// KindFatTree is the three-tier k-ary fat tree of Al-Fares et al.
	// (FACTS 5.4 [R54]: k pods, k³/4 hosts).
	KindFatTree = "fattree"
	// KindRails is a rail-optimized fabric: NIC r of every server on plane
	// r, each plane a two-tier leaf-spine (FACTS 5.4 [R55]).
	KindRails = "rails"
)

// DefaultPortMode is the port mode a TopologyConfig uses when it names
// none: 128 x 400G, the 51.2T chip at the NIC's speed (FACTS 4, 5.4).
const DefaultPortMode = "128x400G"

// TopologyConfig describes a fabric that Build can build and NewAddressPlan
// can size without building. Endpoint i has address 10.(i>>16).(i>>8).(i)
// and is entry i of every forwarding table, so every endpoint id must be
// below switchasic.DefaultMaxEndpoints (FACTS 5.3: >110k endpoints in one
// subnet is the target, beyond the 49,151 unicast LIDs of InfiniBand).
//
// Leaf-spine: Leaves leaves of HostsPerLeaf hosts, Spines spines, each leaf
// linked to each spine by LinksPerSpine parallel links; the
// oversubscription is HostsPerLeaf : Spines·LinksPerSpine.
//
// Fat tree: K pods of K/2 edge and K/2 aggregation switches, (K/2)² cores;
// each edge has HostsPerLeaf hosts (default K/2, non-blocking; more
// oversubscribes the edge) and K/2 uplinks, one per aggregation switch of
// its pod (FACTS 5.4 [R54]).
//
// Rails: Rails planes, each a leaf-spine of Leaves, Spines, HostsPerLeaf and
// LinksPerSpine; a server has one NIC per plane, so there are
// Leaves·HostsPerLeaf servers and Rails times as many endpoints. Endpoint
// s·Rails + r is NIC r of server s. Traffic between rails crosses inside
// the server (NVLink, FACTS 5.4 [R55]) and is not modelled: a plane has no
// route to another plane's endpoints.
type TopologyConfig struct {
	// Kind is KindLeafSpine, KindFatTree or KindRails.
	Kind string `yaml:"kind"`
	// PortMode names the lane width of every switch port, one of the
	// switchasic standard modes ("64x800G", "128x400G", "256x200G",
	// "512x100G"); "" is DefaultPortMode. Each switch gets a port plan with
	// only the ports it uses.
	PortMode string `yaml:"port_mode"`
	// Radix caps the ports a switch may use; 0 is all ports of the mode.
	Radix int `yaml:"radix"`

	// Leaves, Spines, HostsPerLeaf and LinksPerSpine size a leaf-spine or
	// one rail plane; HostsPerLeaf is also a fat tree's hosts per edge.
	Leaves        int `yaml:"leaves"`
	Spines        int `yaml:"spines"`
	HostsPerLeaf  int `yaml:"hosts_per_leaf"`
	LinksPerSpine int `yaml:"links_per_spine"`
	// K is the fat tree's switch radix (even, at least 2).
	K int `yaml:"k"`
	// Rails is the number of planes (NICs per server) of a rails fabric.
	Rails int `yaml:"rails"`

	// HostCableMillimetres is the NIC-to-leaf cable; 0 keeps the switch
	// template's CableMillimetres (FACTS 6.2: 2 m).
	HostCableMillimetres uint64 `yaml:"host_cable_mm"`
	// Tier1CableMillimetres is the leaf-to-spine (edge-to-aggregation)
	// cable; 0 keeps the template's.
	Tier1CableMillimetres uint64 `yaml:"tier1_cable_mm"`
	// Tier2CableMillimetres is the aggregation-to-core cable of a fat
	// tree; 0 keeps the template's.
	Tier2CableMillimetres uint64 `yaml:"tier2_cable_mm"`

	// Switch is the template every switch is built from (its port plan is
	// replaced by one sized to the switch); a zero value means
	// switchasic.DefaultConfig().
	Switch switchasic.Config `yaml:"-"`
}

// template returns the switch template, the default when none was given.
func (c TopologyConfig) template() switchasic.Config {
	if c.Switch.Pipes.Pipes == 0 && c.Switch.Plan == nil {
		return switchasic.DefaultConfig()
	}
	return c.Switch
}

// portMode resolves PortMode.
func (c TopologyConfig) portMode() (switchasic.PortMode, error) {
	if c.PortMode == "" {
		return switchasic.ParsePortMode(DefaultPortMode)
	}
	return switchasic.ParsePortMode(c.PortMode)
}

// radix is the number of ports a switch may use.
func (c TopologyConfig) radix(m switchasic.PortMode) int {
	if c.Radix > 0 {
		return c.Radix
	}
	return m.Ports()
}

// hostsPerLeaf resolves HostsPerLeaf (a fat tree's default is K/2).
func (c TopologyConfig) hostsPerLeaf() int {
	if c.Kind == KindFatTree && c.HostsPerLeaf == 0 {
		return c.K / 2
	}
	return c.HostsPerLeaf
}

// linksPerSpine resolves LinksPerSpine (default 1).
func (c TopologyConfig) linksPerSpine() int { return max(c.LinksPerSpine, 1) }

// Endpoints is the number of NICs the topology has (0 for an unknown
// kind): Leaves·HostsPerLeaf for a leaf-spine, K·(K/2)·HostsPerLeaf for a
// fat tree (K³/4 non-blocking, FACTS 5.4 [R54]) and Rails times the
// leaf-spine count for rails.
func (c TopologyConfig) Endpoints() int {
	switch c.Kind {
	case KindLeafSpine:
		return c.Leaves * c.HostsPerLeaf
	case KindFatTree:
		return c.K * (c.K / 2) * c.hostsPerLeaf()
	case KindRails:
		return c.Rails * c.Leaves * c.HostsPerLeaf
	}
	return 0
}

// Planes returns the endpoints that can reach each other, one slice per
// plane in increasing order: all endpoints for a leaf-spine or fat tree,
// and endpoints r, r+Rails, r+2·Rails, ... for rail r. Workloads on a
// rails fabric run within a plane.
func (c TopologyConfig) Planes() [][]int {
	n := c.Endpoints()
	if c.Kind != KindRails {
		return [][]int{Endpoints(n)}
	}
	out := make([][]int, c.Rails)
	for r := range out {
		for i := r; i < n; i += c.Rails {
			out[r] = append(out[r], i)
		}
	}
	return out
}

// Endpoints returns 0, 1, ..., n-1: the hosts of a workload spanning a
// whole fabric.
func Endpoints(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// CheckFlows validates flows against the topology: ValidateFlows over its
// endpoints, and on a rails fabric every flow inside one plane (traffic
// between rails crosses inside the server and is not modelled, FACTS 5.4
// [R55]).
func (c TopologyConfig) CheckFlows(flows []Flow) error {
	if err := ValidateFlows(flows, c.Endpoints()); err != nil {
		return err
	}
	if c.Kind != KindRails {
		return nil
	}
	for i, f := range flows {
		if f.Src%c.Rails != f.Dst%c.Rails {
			return flowErr(i, "fabric: flow %d goes from rail %d (endpoint %d) to rail %d (endpoint %d); a rails fabric carries traffic within a rail only",
				f.ID, f.Src%c.Rails, f.Src, f.Dst%c.Rails, f.Dst)
		}
	}
	return nil
}

// NonBlockingLeafSpine is the largest non-blocking two-tier fabric of
// radix-port switches: radix leaves of radix/2 hosts and radix/2 uplinks,
// radix/2 spines, radix²/2 hosts (FACTS 5.4, E). portMode is as in
// TopologyConfig.
func NonBlockingLeafSpine(radix int, portMode string) TopologyConfig {
	return TopologyConfig{Kind: KindLeafSpine, PortMode: portMode, Radix: radix,
		Leaves: radix, Spines: radix / 2, HostsPerLeaf: radix / 2}
}
