package fabric

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/fabricmodel/fabricmodel/switchasic"
)

// AddressPlan is what a topology needs of the switches and their tables,
// computed from its TopologyConfig without building or simulating it, in
// memory proportional to the switch ports (a few MB for 128,000 endpoints).
// Figures are table-ready.
type AddressPlan struct {
	Kind      string
	PortMode  string
	Endpoints int
	// FirstAddress and LastAddress are the IPv4 addresses of endpoints 0
	// and Endpoints-1: 10.(i>>16).(i>>8).(i).
	FirstAddress, LastAddress string
	// Planes is the number of rail planes (1 unless rails).
	Planes int
	// Oversubscription is leaf host ports over leaf uplinks (1 is
	// non-blocking at the leaf).
	Oversubscription float64
	// Tiers lists the switches of each tier, leaves first.
	Tiers []TierPlan
	// SwitchLinks counts duplex switch-to-switch links; HostLinks NIC links.
	SwitchLinks, HostLinks int
	// TableEntries is each switch's forwarding table size
	// (switchasic.DefaultMaxEndpoints, FACTS 5.3).
	TableEntries int
	// Fits is true when every endpoint id and every switch's routes fit
	// the tables; NewAddressPlan rejects a topology that does not, so a
	// returned plan always fits.
	Fits bool
	// LeafPairs is how many (source leaf, destination leaf) pairs the
	// reachability walk followed, DeliveredHosts how many endpoints it
	// checked the last hop to.
	LeafPairs, DeliveredHosts int
	// MinPaths and MaxPaths bound the number of distinct ECMP paths
	// between two different leaves of a plane; MaxSwitchHops is the most
	// switches a packet crosses.
	MinPaths, MaxPaths uint64
	MaxSwitchHops      int
}

// TierPlan is one tier of an AddressPlan. Figures are per switch and the
// same for every switch of the tier unless given as a range.
type TierPlan struct {
	Name     string
	Switches int
	// Ports is the ports each switch uses; DownPorts face hosts or the
	// tier below, UpPorts the tier above.
	Ports, DownPorts, UpPorts int
	// MinEntries and MaxEntries bound the routed destinations per switch.
	MinEntries, MaxEntries int
	// Groups is the ECMP groups per switch, MaxGroupSize the widest.
	Groups, MaxGroupSize int
	// GroupMembers is the members over all groups of one switch.
	GroupMembers int
	// HardwareBits is the table SRAM of one switch: TableEntries x
	// RouteEntryBits + GroupMembers x MemberEntryBits (switchasic, E).
	HardwareBits int
}

// NewAddressPlan sizes cfg's fabric and walks its routing: from every leaf
// to every leaf of the same plane it follows every ECMP member of every
// route and fails if a route is missing, loops, or delivers to a host
// other than the one whose address was looked up; and on each leaf it
// checks that every endpoint's own entry points at its port. It fails
// first on anything Validate rejects, which includes more endpoints than
// the forwarding tables hold.
func NewAddressPlan(cfg TopologyConfig) (*AddressPlan, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	s := newShape(cfg)
	m, _ := cfg.portMode()
	n := cfg.Endpoints()
	p := &AddressPlan{Kind: cfg.Kind, PortMode: m.Name, Endpoints: n, Planes: max(cfg.Rails, 1),
		FirstAddress: EndpointAddress(0), LastAddress: EndpointAddress(n - 1),
		TableEntries: switchasic.DefaultMaxEndpoints, HostLinks: n}
	up := s.ports(0) - s.h
	p.Oversubscription = float64(s.h) / float64(up)
	entries := make([]int, s.numSwitches())
	if err := s.walk(p, entries); err != nil {
		return nil, err
	}
	p.Fits = n <= p.TableEntries
	for t, ts := range s.tiers {
		tp := TierPlan{Name: ts.name, Switches: ts.count, Ports: s.ports(ts.first), MinEntries: entries[ts.first], MaxEntries: entries[ts.first]}
		for sw := ts.first; sw < ts.first+ts.count; sw++ {
			tp.MinEntries, tp.MaxEntries = min(tp.MinEntries, entries[sw]), max(tp.MaxEntries, entries[sw])
			tp.Groups = max(tp.Groups, len(s.groups[sw]))
			members := 0
			for _, g := range s.groups[sw] {
				tp.MaxGroupSize = max(tp.MaxGroupSize, len(g))
				members += len(g)
			}
			tp.GroupMembers = max(tp.GroupMembers, members)
			for q := 0; q < s.ports(sw); q++ {
				peer, _ := s.peer(sw, q)
				if peer >= 0 && s.tierOf(peer) > t {
					tp.UpPorts++
					p.SwitchLinks++
				}
			}
		}
		tp.UpPorts /= ts.count
		tp.DownPorts = tp.Ports - tp.UpPorts
		tp.HardwareBits = p.TableEntries*switchasic.RouteEntryBits + tp.GroupMembers*switchasic.MemberEntryBits
		if tp.MaxEntries > p.TableEntries {
			p.Fits = false
		}
		p.Tiers = append(p.Tiers, tp)
	}
	return p, nil
}

// EndpointAddress is endpoint i's IPv4 address, 10.(i>>16).(i>>8).(i).
func EndpointAddress(i int) string {
	return fmt.Sprintf("10.%d.%d.%d", i>>16&0xff, i>>8&0xff, i&0xff)
}

// walk checks every route towards every leaf and counts each switch's
// entries. For one destination leaf at a time it evaluates each switch
// once and each distinct set of next-hop switches once (all edges of a pod
// share their uplink set, all aggregation switches of an index their core
// set), so the cost is about switches + distinct sets x members per leaf.
func (s *shape) walk(p *AddressPlan, entries []int) error {
	nsw := s.numSwitches()
	sets, setOf := s.nextHopSets()
	const (
		unseen = iota
		busy
		done
	)
	state, setState := make([]uint8, nsw), make([]uint8, len(sets))
	paths, setPaths := make([]uint64, nsw), make([]uint64, len(sets))
	hops, setHops := make([]int, nsw), make([]int, len(sets))
	var visit func(sw, dst int) error
	visit = func(sw, dst int) error {
		switch state[sw] {
		case busy:
			return fmt.Errorf("fabric: the routes towards %s loop at %s", s.name(dst), s.name(sw))
		case done:
			return nil
		}
		state[sw] = busy
		if sw == dst {
			paths[sw], hops[sw], state[sw] = 1, 1, done
			return nil
		}
		g := s.route(sw, dst)
		if g < 0 {
			return fmt.Errorf("fabric: %s has no route towards %s", s.name(sw), s.name(dst))
		}
		id := setOf[sw][g]
		if setState[id] != done {
			setState[id] = busy
			var np uint64
			h := 0
			for _, peer := range sets[id] {
				if peer < 0 {
					return fmt.Errorf("fabric: %s sends traffic for %s to a host", s.name(sw), s.name(dst))
				}
				if state[peer] != done {
					if err := visit(int(peer), dst); err != nil {
						return err
					}
				}
				np += paths[peer]
				h = max(h, hops[peer])
			}
			setPaths[id], setHops[id], setState[id] = np, h, done
		}
		paths[sw], hops[sw], state[sw] = setPaths[id], setHops[id]+1, done
		return nil
	}
	p.MinPaths = ^uint64(0)
	leaves := s.numLeaves()
	for dst := 0; dst < leaves; dst++ {
		clear(state)
		clear(setState)
		for src := 0; src < leaves; src++ {
			if s.plane(src) != s.plane(dst) {
				continue
			}
			if err := visit(src, dst); err != nil {
				return err
			}
			p.LeafPairs++
			p.MaxSwitchHops = max(p.MaxSwitchHops, hops[src])
			if src != dst {
				p.MinPaths, p.MaxPaths = min(p.MinPaths, paths[src]), max(p.MaxPaths, paths[src])
			}
		}
		for sw := 0; sw < nsw; sw++ {
			// A switch the walk passed has a route; ask the others.
			if state[sw] == done || s.route(sw, dst) >= 0 {
				entries[sw] += s.h
			}
		}
		if err := s.deliver(dst); err != nil {
			return err
		}
		p.DeliveredHosts += s.h
	}
	if p.MaxPaths == 0 {
		p.MinPaths = 0
	}
	return nil
}

// nextHopSets gives every group of every switch the id of its multiset of
// next hops (peer switches, sorted; -1 for a host), and the sets by id.
func (s *shape) nextHopSets() (sets [][]int32, setOf [][]int32) {
	ids := map[string]int32{}
	setOf = make([][]int32, s.numSwitches())
	var key []byte
	var peers []int32
	for sw := range setOf {
		setOf[sw] = make([]int32, len(s.groups[sw]))
		for g, m := range s.groups[sw] {
			peers = peers[:0]
			for _, q := range m {
				peer, _ := s.peer(sw, int(q))
				peers = append(peers, int32(peer))
			}
			slices.Sort(peers)
			key = key[:0]
			for _, x := range peers {
				key = binary.LittleEndian.AppendUint32(key, uint32(x))
			}
			id, ok := ids[string(key)]
			if !ok {
				id = int32(len(sets))
				ids[string(key)] = id
				sets = append(sets, slices.Clone(peers))
			}
			setOf[sw][g] = id
		}
	}
	return sets, setOf
}

// deliver checks the last hop on leaf: each host port's endpoint is placed
// there by locate, and its group is that port alone.
func (s *shape) deliver(leaf int) error {
	for q := 0; q < s.h; q++ {
		peer, d := s.peer(leaf, q)
		if peer >= 0 {
			return fmt.Errorf("fabric: %s port %d should face a host", s.name(leaf), q)
		}
		if l, port := s.locate(d); l != leaf || port != q {
			return fmt.Errorf("fabric: endpoint %d is on %s port %d but its address locates it on switch %d port %d", d, s.name(leaf), q, l, port)
		}
		if g := s.groups[leaf][q]; len(g) != 1 || int(g[0]) != q {
			return fmt.Errorf("fabric: %s routes endpoint %d to ports %v, not its port %d", s.name(leaf), d, g, q)
		}
	}
	return nil
}

// TierHeader names the columns of TierRows.
var TierHeader = []string{"tier", "switches", "ports", "down", "up", "entries", "groups", "widest group", "members", "table bits"}

// TierRows returns one row per tier under TierHeader, for a table writer;
// entries show a range when the switches of a tier differ.
func (p *AddressPlan) TierRows() [][]string {
	rows := make([][]string, 0, len(p.Tiers))
	for _, t := range p.Tiers {
		entries := fmt.Sprint(t.MaxEntries)
		if t.MinEntries != t.MaxEntries {
			entries = fmt.Sprintf("%d-%d", t.MinEntries, t.MaxEntries)
		}
		rows = append(rows, []string{t.Name, fmt.Sprint(t.Switches), fmt.Sprint(t.Ports), fmt.Sprint(t.DownPorts),
			fmt.Sprint(t.UpPorts), entries, fmt.Sprint(t.Groups), fmt.Sprint(t.MaxGroupSize),
			fmt.Sprint(t.GroupMembers), fmt.Sprint(t.HardwareBits)})
	}
	return rows
}
