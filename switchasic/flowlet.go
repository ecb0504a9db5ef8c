package switchasic

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// flowletEntry is one flowlet table slot: 16 bytes in the model. Hardware
// would keep a valid bit, the group (16 bits), the member index (9 bits,
// MaxGroupMembers) and a timestamp wide enough to measure the gap.
type flowletEntry struct {
	last   rtlmodel.Time // arrival of the flowlet's latest packet
	group  uint16        // group the slot belongs to now
	member uint16        // member index the flowlet uses
	valid  bool
}

// FlowletTable remembers, per flow hash and group, when the flow last sent
// and which member it went to, so DLB can keep a flowlet on one member and
// move it only after an idle gap (FACTS 7 "Hash/DLB", parameters E). It is
// direct-mapped without tags, as hardware flowlet tables are: two flows
// whose hashes share a slot share a flowlet. A slot last used by another
// group, or naming a member a shrunk group no longer has, starts a new
// flowlet.
type FlowletTable struct {
	entries []flowletEntry
	mask    uint32
	gap     rtlmodel.Time
}

// NewFlowletTable returns an empty table of n slots (a power of two) with
// the given inactivity gap.
func NewFlowletTable(n int, gap rtlmodel.Time) *FlowletTable {
	if n < 1 || n&(n-1) != 0 {
		panic(fmt.Sprintf("switchasic: flowlet table of %d slots is not a power of two", n))
	}
	return &FlowletTable{entries: make([]flowletEntry, n), mask: uint32(n - 1), gap: gap}
}

// Len is the number of slots.
func (f *FlowletTable) Len() int { return len(f.entries) }

// Gap is the inactivity gap.
func (f *FlowletTable) Gap() rtlmodel.Time { return f.gap }

// Slot is the slot of a flow hash in group: the low bits of the hash XOR
// the group times the 32-bit golden ratio, so one flow in two groups lands
// in two slots.
func (f *FlowletTable) Slot(hash uint32, group int) int {
	return int((hash ^ uint32(group)*0x9E3779B1) & f.mask)
}

// Live reports whether slot holds a live flowlet of group with a member
// below n: valid, same group, and idle for no more than the gap at now. If
// so it refreshes the slot's time and returns the member.
func (f *FlowletTable) Live(slot, group, n int, now rtlmodel.Time) (member int, ok bool) {
	e := &f.entries[slot]
	if !e.valid || int(e.group) != group || int(e.member) >= n {
		return 0, false
	}
	if now > e.last && now-e.last > f.gap {
		return 0, false
	}
	e.last = max(e.last, now)
	return int(e.member), true
}

// Start records a new flowlet of group on member at now in slot.
func (f *FlowletTable) Start(slot, group, member int, now rtlmodel.Time) {
	f.entries[slot] = flowletEntry{last: now, group: uint16(group), member: uint16(member), valid: true}
}
