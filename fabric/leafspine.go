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
// L links to its leaf.
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
	c := &Cluster{Engine: rtlmodel.NewEngine(opts), Pool: &packet.DescPool{}, HostsPerLeaf: H, Planes: 1}
	build := func(name string, i int, cables map[int]uint64) (*switchasic.Switch, error) {
		sc := cfg.Switch
		sc.Seed = cfg.Switch.Seed + uint64(len(c.Leaves)+len(c.Spines))*7919
		sc.PortCableMillimetres = cables
		return switchasic.New(c.Engine, fmt.Sprintf("%s%d", name, i), sc, c.Pool)
	}
	cable := func(l, s, k int) (uint64, bool) {
		if cfg.UplinkCableMillimetres == nil {
			return 0, false
		}
		return cfg.UplinkCableMillimetres(l, s, k), true
	}
	for l := 0; l < cfg.Leaves; l++ {
		cables := map[int]uint64{}
		for s := 0; s < cfg.Spines; s++ {
			for k := 0; k < L; k++ {
				if mm, ok := cable(l, s, k); ok {
					cables[H+s*L+k] = mm
				}
			}
		}
		sw, err := build("leaf", l, cables)
		if err != nil {
			return nil, err
		}
		c.Leaves = append(c.Leaves, sw)
	}
	for s := 0; s < cfg.Spines; s++ {
		cables := map[int]uint64{}
		for l := 0; l < cfg.Leaves; l++ {
			for k := 0; k < L; k++ {
				if mm, ok := cable(l, s, k); ok {
					cables[l*L+k] = mm
				}
			}
		}
		sw, err := build("spine", s, cables)
		if err != nil {
			return nil, err
		}
		c.Spines = append(c.Spines, sw)
	}
	for l, leaf := range c.Leaves {
		for s, spine := range c.Spines {
			for k := 0; k < L; k++ {
				if err := leaf.LinkTo(H+s*L+k, spine, l*L+k); err != nil {
					return nil, err
				}
				if err := spine.LinkTo(l*L+k, leaf, H+s*L+k); err != nil {
					return nil, err
				}
			}
		}
	}
	return c, c.attachAndRoute(cfg, L)
}

func (c *Cluster) attachAndRoute(cfg LeafSpineConfig, L int) error {
	H := cfg.HostsPerLeaf
	n := cfg.Leaves * H
	uplinks := make([]int, 0, cfg.Spines*L)
	for p := H; p < H+cfg.Spines*L; p++ {
		uplinks = append(uplinks, p)
	}
	for i := 0; i < n; i++ {
		l, h := i/H, i%H
		nc, err := attachNIC(c.Engine, c.Pool, c.Leaves[l], h, uint32(i), cfg.NIC(i))
		if err != nil {
			return err
		}
		c.NICs = append(c.NICs, nc)
	}
	for l, leaf := range c.Leaves {
		up, err := leaf.Forwarding().AddGroup(uplinks)
		if err != nil {
			return err
		}
		for i := 0; i < n; i++ {
			if i/H == l {
				if err := route(leaf, uint32(i), []int{i % H}); err != nil {
					return err
				}
			} else if err := leaf.Forwarding().SetRoute(uint32(i), up); err != nil {
				return err
			}
		}
	}
	for _, spine := range c.Spines {
		for l := range c.Leaves {
			down := make([]int, L)
			for k := range down {
				down[k] = l*L + k
			}
			g, err := spine.Forwarding().AddGroup(down)
			if err != nil {
				return err
			}
			for h := 0; h < H; h++ {
				if err := spine.Forwarding().SetRoute(uint32(l*H+h), g); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
