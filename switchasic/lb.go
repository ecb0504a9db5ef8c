package switchasic

import (
	"fmt"
	"strings"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// LBMode selects how a Balancer spreads packets over the members of an
// ECMP group (issue 5 "Forwarding"; FACTS 7 "Hash/DLB" and "Spraying
// entropy").
type LBMode uint8

// The load-balancing modes.
const (
	// PerFlow hashes the selected flow fields (by default the 5-tuple,
	// which holds the RoCEv2 UDP source port entropy, FACTS 1.1 [R7]) and
	// keeps every packet of a flow on one member: classic ECMP.
	PerFlow LBMode = iota + 1
	// PerPacketEntropy hashes only the packet's entropy value (the UDP
	// source port and the transport entropy field; FACTS 7: 14 bits in
	// RoCEv2, 16 in UET), so a sender that changes the entropy per packet
	// sprays its packets.
	PerPacketEntropy
	// RoundRobin sends consecutive packets of a group to consecutive
	// members.
	RoundRobin
	// Random picks a member uniformly from a seeded stream per packet.
	Random
	// DLB is dynamic load balancing on flowlets: a new flowlet (a flow idle
	// for more than the flowlet gap) goes to the member in the best port
	// quality band; packets of a live flowlet stick to its member (FACTS 7,
	// parameters E).
	DLB
)

// lbModeNames are the names String prints and ParseLBMode reads.
var lbModeNames = [...]string{PerFlow: "per-flow", PerPacketEntropy: "per-packet", RoundRobin: "round-robin", Random: "random", DLB: "dlb"}

// String names the mode.
func (m LBMode) String() string {
	if int(m) < len(lbModeNames) && lbModeNames[m] != "" {
		return lbModeNames[m]
	}
	return fmt.Sprintf("lbmode(%d)", uint8(m))
}

// ParseLBMode reads a mode name as String prints it ("per-flow",
// "per-packet", "round-robin", "random", "dlb"), case insensitive.
func ParseLBMode(s string) (LBMode, error) {
	for m, name := range lbModeNames {
		if name != "" && strings.EqualFold(name, s) {
			return LBMode(m), nil
		}
	}
	return 0, fmt.Errorf("switchasic: unknown load-balancing mode %q (want per-flow, per-packet, round-robin, random or dlb)", s)
}

// Strategy is one load-balancing policy: given a group's members, it picks
// the index of the member one packet leaves by. Implementations keep their
// own state (pointers, flowlets) and must not allocate per call. The modes
// of LBMode are Strategies; NewBalancerWith takes any other.
type Strategy interface {
	PickMember(group int, members []int, key *packet.FlowKey, now rtlmodel.Time) int
}

// Balancer turns an ECMP group into an egress port for each packet, with
// one Strategy, and keeps the DLB port-quality state that UpdatePort feeds.
// Pick allocates nothing in steady state. It is not safe for concurrent
// use: each switch owns its Balancer.
type Balancer struct {
	mode    LBMode
	table   *ForwardingTable
	strat   Strategy
	quality *PortQuality
}

// NewBalancer builds a Balancer for t in the given mode. hasher selects
// the flow fields and hash function for PerFlow and the flowlet index of
// DLB; nil means DefaultECMPConfig. PerPacketEntropy hashes the entropy
// fields with the same function and seed. seed drives Random. dlb
// configures the flowlet table and port quality (DLB mode) and the
// quality arithmetic of UpdatePort (every mode); the zero DLBConfig means
// DefaultDLBConfig. It panics on an unknown mode, a nil table or a dlb
// that fails Validate: check user input with ParseLBMode and
// DLBConfig.Validate first.
func NewBalancer(mode LBMode, t *ForwardingTable, hasher *packet.ECMPHasher, seed uint64, dlb DLBConfig) *Balancer {
	if t == nil {
		panic("switchasic: balancer without a forwarding table")
	}
	if hasher == nil {
		hasher = DefaultECMPHasher()
	}
	if dlb == (DLBConfig{}) {
		dlb = DefaultDLBConfig()
	}
	if err := dlb.Validate(); err != nil {
		panic(err)
	}
	b := &Balancer{mode: mode, table: t, quality: NewPortQuality(dlb)}
	b.strat = newStrategy(mode, hasher, seed, dlb, b.quality)
	return b
}

// newStrategy builds the Strategy of a mode; DLB reads its bands from bands.
func newStrategy(mode LBMode, hasher *packet.ECMPHasher, seed uint64, dlb DLBConfig, bands BandReader) Strategy {
	switch mode {
	case PerFlow:
		return NewHashStrategy(hasher)
	case PerPacketEntropy:
		return NewEntropySprayStrategy(hasher)
	case RoundRobin:
		return NewRoundRobinStrategy()
	case Random:
		return NewRandomStrategy(seed)
	case DLB:
		return NewDLBStrategy(dlb, hasher, bands)
	}
	panic(fmt.Sprintf("switchasic: unknown load-balancing mode %v", mode))
}

// NewBalancerWith builds a Balancer for t around any Strategy; its Mode is
// 0 and UpdatePort still feeds Quality with the default DLB arithmetic.
func NewBalancerWith(t *ForwardingTable, s Strategy) *Balancer {
	if t == nil || s == nil {
		panic("switchasic: balancer needs a forwarding table and a strategy")
	}
	return &Balancer{table: t, strat: s, quality: NewPortQuality(DefaultDLBConfig())}
}

// Mode is the balancer's mode (0 for a custom strategy).
func (b *Balancer) Mode() LBMode { return b.mode }

// Strategy is the policy the balancer applies.
func (b *Balancer) Strategy() Strategy { return b.strat }

// Quality is the port-quality state UpdatePort feeds.
func (b *Balancer) Quality() *PortQuality { return b.quality }

// Pick returns the egress port for one packet of flow key bound to group
// at time now. group must exist in the table (Lookup returned it).
func (b *Balancer) Pick(group int, key *packet.FlowKey, now rtlmodel.Time) int {
	m := b.table.Members(group)
	return m[b.strat.PickMember(group, m, key, now)]
}

// UpdatePort feeds the DLB quality of port: the bytes it sent in the last
// sample window and its queue depth now, quantised into a band as
// PortQuality.Update documents (fixed point, FACTS 7 parameters E). The
// datapath calls it once per port per DLBConfig.SampleWindow. Bands compare
// bytes, so the members of a DLB group should run at one speed; for a group
// mixing speeds, feed counts scaled to a common speed.
func (b *Balancer) UpdatePort(port int, txBytesInWindow uint64, queueBytes uint64) {
	b.quality.Update(port, txBytesInWindow, queueBytes)
}
