package fabric

import "fmt"

// shape is a topology's switches, cabling, ECMP groups and routing
// function, computed from a TopologyConfig without building any switch.
// Build programs the forwarding tables from it and NewAddressPlan walks it,
// so the walk checks exactly the tables a built fabric holds.
//
// Switches are numbered tier by tier (tier 0 holds the leaves, or edges)
// and get ports 0..ports-1. The first hostsPerLeaf ports of a leaf face
// its hosts, and a leaf's group p (p < hostsPerLeaf) is that host port
// alone. Every other route is a function of the destination's leaf only
// (up/down routing, FACTS 5.4 [R54]): route(sw, leaf) gives the group index
// or -1 for no route.
type shape struct {
	cfg   TopologyConfig
	kind  string
	h, l  int // hosts per leaf, links per leaf-spine pair
	e     int // fat tree: k/2 switches per pod tier, ports per direction
	tiers []tierShape
	// off[sw] is where switch sw's ports start in peerSw and peerPort;
	// a host port holds peerSw -1 and the endpoint in peerPort.
	off              []int
	peerSw, peerPort []int32
	groups           [][][]int32
}

// tierShape is one tier: its name, first switch and count.
type tierShape struct {
	name         string
	first, count int
}

// newShape lays out a validated configuration.
func newShape(cfg TopologyConfig) *shape {
	s := &shape{cfg: cfg, kind: cfg.Kind, h: cfg.hostsPerLeaf(), l: cfg.linksPerSpine()}
	switch cfg.Kind {
	case KindFatTree:
		s.fatTree()
	default:
		s.leafSpine(max(cfg.Rails, 1))
	}
	return s
}

// numSwitches is the number of switches over all tiers.
func (s *shape) numSwitches() int { return len(s.off) - 1 }

// numLeaves is the number of tier-0 switches.
func (s *shape) numLeaves() int { return s.tiers[0].count }

// ports is switch sw's port count.
func (s *shape) ports(sw int) int { return s.off[sw+1] - s.off[sw] }

// tierOf returns sw's tier.
func (s *shape) tierOf(sw int) int {
	for t := len(s.tiers) - 1; t > 0; t-- {
		if sw >= s.tiers[t].first {
			return t
		}
	}
	return 0
}

// name is sw's component path.
func (s *shape) name(sw int) string {
	t := s.tierOf(sw)
	i := sw - s.tiers[t].first
	if s.kind == KindRails {
		per := s.tiers[t].count / s.cfg.Rails
		return fmt.Sprintf("rail%d/%s%d", i/per, s.tiers[t].name, i%per)
	}
	return fmt.Sprintf("%s%d", s.tiers[t].name, i)
}

// peer returns what port p of sw is cabled to: a switch and its port, or
// sw -1 and the endpoint.
func (s *shape) peer(sw, p int) (int, int) {
	i := s.off[sw] + p
	return int(s.peerSw[i]), int(s.peerPort[i])
}

// addTier appends a tier of count switches of ports ports each.
func (s *shape) addTier(name string, count, ports int) {
	first := len(s.off) - 1
	if first < 0 {
		s.off, first = []int{0}, 0
	}
	s.tiers = append(s.tiers, tierShape{name: name, first: first, count: count})
	for i := 0; i < count; i++ {
		s.off = append(s.off, s.off[len(s.off)-1]+ports)
	}
	s.groups = append(s.groups, make([][][]int32, count)...)
}

// alloc sizes the cabling arrays once every tier is added.
func (s *shape) alloc() {
	n := s.off[len(s.off)-1]
	s.peerSw, s.peerPort = make([]int32, n), make([]int32, n)
}

// cable joins port pa of a and port pb of b, both ways.
func (s *shape) cable(a, pa, b, pb int) {
	s.peerSw[s.off[a]+pa], s.peerPort[s.off[a]+pa] = int32(b), int32(pb)
	s.peerSw[s.off[b]+pb], s.peerPort[s.off[b]+pb] = int32(a), int32(pa)
}

// hosts puts the leaf's hosts on ports 0..h-1 with their groups.
func (s *shape) hosts(leaf int) {
	for p := 0; p < s.h; p++ {
		s.peerSw[s.off[leaf]+p], s.peerPort[s.off[leaf]+p] = -1, int32(s.endpointAt(leaf, p))
		s.groups[leaf] = append(s.groups[leaf], []int32{int32(p)})
	}
}

// span returns the ports from, from+1, ..., from+n-1.
func span(from, n int) []int32 {
	g := make([]int32, n)
	for i := range g {
		g[i] = int32(from + i)
	}
	return g
}

// leafSpine lays out planes leaf-spine planes: leaf port h + s·l + k goes
// to port leaf·l + k of spine s of the same plane (the NewLeafSpine wiring).
func (s *shape) leafSpine(planes int) {
	c := s.cfg
	s.addTier("leaf", planes*c.Leaves, s.h+c.Spines*s.l)
	s.addTier("spine", planes*c.Spines, c.Leaves*s.l)
	s.alloc()
	for p := 0; p < planes; p++ {
		for lf := 0; lf < c.Leaves; lf++ {
			leaf := p*c.Leaves + lf
			s.hosts(leaf)
			s.groups[leaf] = append(s.groups[leaf], span(s.h, c.Spines*s.l))
			for sp := 0; sp < c.Spines; sp++ {
				for k := 0; k < s.l; k++ {
					s.cable(leaf, s.h+sp*s.l+k, s.tiers[1].first+p*c.Spines+sp, lf*s.l+k)
				}
			}
		}
		for sp := 0; sp < c.Spines; sp++ {
			spine := s.tiers[1].first + p*c.Spines + sp
			for lf := 0; lf < c.Leaves; lf++ {
				s.groups[spine] = append(s.groups[spine], span(lf*s.l, s.l))
			}
		}
	}
}

// fatTree lays out the k-ary fat tree (FACTS 5.4 [R54]): edge e of pod p
// has hosts on ports 0..h-1 and port h+j to port e of aggregation switch j
// of the pod; port k/2+u of aggregation switch j goes to core j·(k/2)+u,
// whose port p faces pod p.
func (s *shape) fatTree() {
	k := s.cfg.K
	s.e = k / 2
	E := s.e
	s.addTier("edge", k*E, s.h+E)
	s.addTier("agg", k*E, k)
	s.addTier("core", E*E, k)
	s.alloc()
	agg, core := s.tiers[1].first, s.tiers[2].first
	for p := 0; p < k; p++ {
		for e := 0; e < E; e++ {
			edge := p*E + e
			s.hosts(edge)
			s.groups[edge] = append(s.groups[edge], span(s.h, E))
			for j := 0; j < E; j++ {
				s.cable(edge, s.h+j, agg+p*E+j, e)
			}
		}
		for j := 0; j < E; j++ {
			a := agg + p*E + j
			for e := 0; e < E; e++ {
				s.groups[a] = append(s.groups[a], []int32{int32(e)})
			}
			s.groups[a] = append(s.groups[a], span(E, E))
			for u := 0; u < E; u++ {
				s.cable(a, E+u, core+j*E+u, p)
			}
		}
	}
	for c := 0; c < E*E; c++ {
		for p := 0; p < k; p++ {
			s.groups[core+c] = append(s.groups[core+c], []int32{int32(p)})
		}
	}
}

// locate returns endpoint d's leaf and port.
func (s *shape) locate(d int) (leaf, port int) {
	if s.kind == KindRails {
		R := s.cfg.Rails
		srv, r := d/R, d%R
		return r*s.cfg.Leaves + srv/s.h, srv % s.h
	}
	return d / s.h, d % s.h
}

// endpointAt is the endpoint on port p (< h) of leaf; locate inverts it.
func (s *shape) endpointAt(leaf, p int) int {
	if s.kind == KindRails {
		r, lf := leaf/s.cfg.Leaves, leaf%s.cfg.Leaves
		return (lf*s.h+p)*s.cfg.Rails + r
	}
	return leaf*s.h + p
}

// plane is the rail plane of a leaf-spine switch (0 for other kinds).
func (s *shape) plane(sw int) int {
	if s.kind != KindRails {
		return 0
	}
	t := s.tierOf(sw)
	return (sw - s.tiers[t].first) / (s.tiers[t].count / s.cfg.Rails)
}

// route is the group switch sw uses towards hosts on leaf dst (dst != sw),
// or -1 when it has none: up towards the spines or cores until the
// destination is below, then down.
func (s *shape) route(sw, dst int) int {
	t := s.tierOf(sw)
	if s.kind == KindFatTree {
		E := s.e
		switch t {
		case 0:
			return s.h // uplinks to the pod's aggregation switches
		case 1:
			pod := (sw - s.tiers[1].first) / E
			if dst/E == pod {
				return dst % E
			}
			return E
		default:
			return dst / E
		}
	}
	if s.plane(sw) != s.plane(dst) {
		return -1
	}
	if t == 0 {
		return s.h
	}
	return dst % s.cfg.Leaves
}
