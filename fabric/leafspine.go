package fabric

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/nic400g"
	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/switchasic"
)

// LeafSpineConfig describes a two-tier leaf-spine fabric.
type LeafSpineConfig struct {
	Leaves, Spines, HostsPerLeaf int
	// LinksPerSpine is the number of parallel links from each leaf to each
	// spine (1 or more).
	LinksPerSpine int
	// Switch is the template every switch is built from; its port plan
	// must hold HostsPerLeaf + Spines·LinksPerSpine ports on a leaf and
	// Leaves·LinksPerSpine on a spine.
	Switch switchasic.Config
	// NIC gives endpoint i's configuration.
	NIC func(i int) nic400g.Config
	// UplinkCableMillimetres, when set, gives the cable length of link k
	// between leaf l and spine s (both directions).
	UplinkCableMillimetres func(l, s, k int) uint64
}

// Cluster is a built fabric. Leaves are tier 0 (a fat tree's edges),
// Spines tier 1 (its aggregation switches) and Cores a fat tree's tier 2;
// a rails fabric lists plane 0's leaves (spines) first, then plane 1's.
type Cluster struct {
	Engine         *rtlmodel.Engine
	Pool           *packet.DescPool
	Leaves, Spines []*switchasic.Switch
	Cores          []*switchasic.Switch
	NICs           []*nic400g.NIC
	HostsPerLeaf   int
	// Planes is the number of rail planes of a rails fabric, else 1.
	Planes int
}

// NewLeafSpine builds the fabric: endpoint i sits on port i mod H of leaf
// i/H; leaf port H + s·L + k goes to port l·L + k of spine s. A leaf
// routes its own endpoints to their ports and every other endpoint over
// all its uplinks as one ECMP group; a spine routes each endpoint over the
// L links to its leaf. The layout and routes are Build's for a
// TopologyConfig of kind leafspine; unlike Build it keeps the template's
// port plan on every switch.
func NewLeafSpine(cfg LeafSpineConfig, opts rtlmodel.Options) (*Cluster, error) {
	L := max(cfg.LinksPerSpine, 1)
	H := cfg.HostsPerLeaf
	if cfg.Leaves < 1 || cfg.Spines < 1 || H < 1 {
		return nil, fmt.Errorf("fabric: leaf-spine needs at least one leaf, spine and host per leaf")
	}
	ports := cfg.Switch.Plan.NumPorts()
	if H+cfg.Spines*L > ports || cfg.Leaves*L > ports {
		return nil, fmt.Errorf("fabric: a leaf needs %d ports and a spine %d; the switch has %d",
			H+cfg.Spines*L, cfg.Leaves*L, ports)
	}
	s := newShape(TopologyConfig{Kind: KindLeafSpine, Leaves: cfg.Leaves, Spines: cfg.Spines, HostsPerLeaf: H, LinksPerSpine: L})
	return s.build(cfg.NIC, opts, func(sw int) (switchasic.Config, error) {
		sc := cfg.Switch
		sc.Seed = cfg.Switch.Seed + uint64(sw)*7919
		sc.PortCableMillimetres = map[int]uint64{}
		if cfg.UplinkCableMillimetres == nil {
			return sc, nil
		}
		for p := 0; p < s.ports(sw); p++ {
			peer, pp := s.peer(sw, p)
			switch {
			case peer < 0:
			case sw < cfg.Leaves: // leaf sw, port H + spine·L + k
				sc.PortCableMillimetres[p] = cfg.UplinkCableMillimetres(sw, peer-cfg.Leaves, (p-H)%L)
			default: // spine, port leaf·L + k
				sc.PortCableMillimetres[p] = cfg.UplinkCableMillimetres(peer, sw-cfg.Leaves, pp-H-(sw-cfg.Leaves)*L)
			}
		}
		return sc, nil
	})
}
