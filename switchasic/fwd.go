package switchasic

import (
	"fmt"
	"unsafe"
)

// DefaultMaxEndpoints is the forwarding table size the switch model is
// built with: 131,072 destinations, the 2-tier host count of a radix-512
// leaf-spine (FACTS 5.4, E) and above the >110k endpoints in one subnet of
// the model's targets (FACTS 5.3, E).
const DefaultMaxEndpoints = 131_072

// MaxGroups is the number of ECMP groups a ForwardingTable can hold: route
// entries are 16 bits with 0 meaning "no route", so group ids run 0 to
// 65,534 (E; TH5 lists 128 DLB-capable ECMP groups, FACTS 4 [R71], S).
const MaxGroups = 1<<16 - 1

// MaxGroupMembers is the largest ECMP group: one member per port of the
// 512x100G mode (ChipLanes, FACTS 4; E).
const MaxGroupMembers = ChipLanes

// Hardware widths of the table, for memory estimates (E).
const (
	// RouteEntryBits is the width of one destination entry: a 16-bit group
	// pointer, 0 for no route.
	RouteEntryBits = 16
	// MemberEntryBits is the width of one group member: a 9-bit egress port
	// number (up to 512 ports, FACTS 4).
	MemberEntryBits = 9
)

// ForwardingTable maps a destination id (a uint32 endpoint address, dense
// from 0) to an ECMP group, and each group to its member egress ports. The
// destination table is a dense array of 16-bit entries (RouteEntryBits), so
// 131,072 endpoints take 256 KiB of SRAM in hardware (2 Mbit); the model
// holds the array only up to the highest destination routed so far, so a
// switch of a 1024-endpoint fabric keeps 2 KiB of it rather than 256 KiB.
// Groups keep their members in their own slices. Lookup and Members
// allocate nothing. It is not safe for concurrent modification.
type ForwardingTable struct {
	routes  []uint16 // group+1, 0 = no route; destinations past its end have none
	max     int      // destinations 0 to max-1 may be routed
	groups  [][]int  // members per group
	members int      // total members over all groups
}

// minRouteEntries is the least the route array grows to at the first
// route, so that a table filled in order grows a few times only.
const minRouteEntries = 256

// NewForwardingTable returns an empty table for destinations 0 to
// maxEndpoints-1; maxEndpoints must be positive (DefaultMaxEndpoints for the
// switch model).
func NewForwardingTable(maxEndpoints int) *ForwardingTable {
	if maxEndpoints <= 0 {
		panic(fmt.Sprintf("switchasic: forwarding table for %d endpoints", maxEndpoints))
	}
	return &ForwardingTable{max: maxEndpoints}
}

// MaxEndpoints is the number of destination entries.
func (t *ForwardingTable) MaxEndpoints() int { return t.max }

// NumGroups is the number of groups added so far; ids are 0..NumGroups-1.
func (t *ForwardingTable) NumGroups() int { return len(t.groups) }

// AddGroup adds an ECMP group with the given member egress ports and
// returns its id. Members are copied; a port may appear more than once to
// weight it (WCMP by replication). It fails for an empty group, a negative
// port, more than MaxGroupMembers members, or a table already holding
// MaxGroups groups.
func (t *ForwardingTable) AddGroup(members []int) (int, error) {
	if len(t.groups) >= MaxGroups {
		return 0, fmt.Errorf("switchasic: forwarding table already holds the maximum of %d groups", MaxGroups)
	}
	m, err := checkMembers(members)
	if err != nil {
		return 0, err
	}
	t.groups = append(t.groups, m)
	t.members += len(m)
	return len(t.groups) - 1, nil
}

// SetMembers replaces the members of an existing group (after a link goes
// down, say), with the checks of AddGroup.
func (t *ForwardingTable) SetMembers(group int, members []int) error {
	if group < 0 || group >= len(t.groups) {
		return fmt.Errorf("switchasic: no ECMP group %d (table has %d)", group, len(t.groups))
	}
	m, err := checkMembers(members)
	if err != nil {
		return err
	}
	t.members += len(m) - len(t.groups[group])
	t.groups[group] = m
	return nil
}

// checkMembers validates and copies a member list.
func checkMembers(members []int) ([]int, error) {
	if len(members) == 0 {
		return nil, fmt.Errorf("switchasic: an ECMP group needs at least one member")
	}
	if len(members) > MaxGroupMembers {
		return nil, fmt.Errorf("switchasic: an ECMP group of %d members is over the limit of %d", len(members), MaxGroupMembers)
	}
	for _, p := range members {
		if p < 0 || p >= 1<<MemberEntryBits {
			return nil, fmt.Errorf("switchasic: ECMP member port %d out of range 0..%d", p, 1<<MemberEntryBits-1)
		}
	}
	return append([]int(nil), members...), nil
}

// SetRoute points destination dst at group. It fails when dst is beyond
// the table or group was never added.
func (t *ForwardingTable) SetRoute(dst uint32, group int) error {
	if uint64(dst) >= uint64(t.max) {
		return fmt.Errorf("switchasic: destination %d beyond the forwarding table of %d entries", dst, t.max)
	}
	if group < 0 || group >= len(t.groups) {
		return fmt.Errorf("switchasic: route for destination %d to unknown ECMP group %d (table has %d)", dst, group, len(t.groups))
	}
	if int(dst) >= len(t.routes) {
		t.growRoutes(int(dst) + 1)
	}
	t.routes[dst] = uint16(group + 1)
	return nil
}

// growRoutes extends the route array to at least n entries, doubling it
// (from minRouteEntries, and never past max); the new entries route
// nothing.
func (t *ForwardingTable) growRoutes(n int) {
	size := max(2*len(t.routes), minRouteEntries, n)
	size = min(size, t.max)
	routes := make([]uint16, size)
	copy(routes, t.routes)
	t.routes = routes
}

// ClearRoute removes the route of dst; a later Lookup misses. Out-of-range
// destinations are ignored.
func (t *ForwardingTable) ClearRoute(dst uint32) {
	if uint64(dst) < uint64(len(t.routes)) {
		t.routes[dst] = 0
	}
}

// Lookup returns the group of dst; ok is false when dst is beyond the
// table or has no route (the datapath drops such packets with a reason).
func (t *ForwardingTable) Lookup(dst uint32) (group int, ok bool) {
	if uint64(dst) >= uint64(len(t.routes)) {
		return 0, false
	}
	e := t.routes[dst]
	return int(e) - 1, e != 0
}

// Members returns the member egress ports of group, which must exist. The
// slice is the table's own and must not be modified.
func (t *ForwardingTable) Members(group int) []int { return t.groups[group] }

// HardwareBits is the SRAM the table would take in hardware:
// MaxEndpoints x RouteEntryBits + total members x MemberEntryBits (E).
func (t *ForwardingTable) HardwareBits() int {
	return t.max*RouteEntryBits + t.members*MemberEntryBits
}

// MemoryBytes is what the table's arrays take in the model: 2 bytes per
// destination up to the highest routed so far (or a little past it, as the
// array doubles) plus one int per member and one slice header per group.
func (t *ForwardingTable) MemoryBytes() int {
	return len(t.routes)*int(unsafe.Sizeof(uint16(0))) +
		t.members*int(unsafe.Sizeof(int(0))) +
		len(t.groups)*int(unsafe.Sizeof([]int(nil)))
}
