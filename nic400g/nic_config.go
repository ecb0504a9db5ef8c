package nic400g

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/serdes"
)

// HeaderStack selects the encapsulation the NIC builds (FACTS 1.4).
type HeaderStack uint8

const (
	// RoCEv2IPv4 is Ethernet/IPv4/UDP 4791/BTH[/RETH] + ICRC + FCS.
	RoCEv2IPv4 HeaderStack = iota
	// RoCEv2IPv6 is Ethernet/IPv6/UDP 4791/BTH[/RETH] + ICRC + FCS.
	RoCEv2IPv6
	// LeanNative is native IB framing, LRH/BTH[/RETH] + ICRC + VCRC, with no
	// Ethernet preamble or gap on the wire.
	LeanNative
	// UET is Ethernet/IPv4/UDP 4793/PDS RUD/SES standard + FCS; every
	// packet carries its buffer offset, so receivers place it directly.
	UET
)

// String names the stack.
func (s HeaderStack) String() string {
	switch s {
	case RoCEv2IPv4:
		return "RoCEv2/IPv4"
	case RoCEv2IPv6:
		return "RoCEv2/IPv6"
	case LeanNative:
		return "native IB"
	case UET:
		return "UET"
	}
	return fmt.Sprintf("stack(%d)", uint8(s))
}

// PSNBytes is how many leading bytes of a data packet on the stack hold
// its PSN: the headers to the end of the BTH (RoCEv2, native IB without a
// GRH) or of the PDS request header (UET). A trimmed packet cut shorter
// no longer says which packet it was.
func (s HeaderStack) PSNBytes() int {
	switch s {
	case RoCEv2IPv6:
		return packet.EthernetLen + packet.IPv6Len + packet.UDPLen + packet.BTHLen
	case LeanNative:
		return packet.LRHLen + packet.BTHLen
	case UET:
		return packet.EthernetLen + packet.IPv4MinLen + packet.UDPLen + packet.PDSRequestLen
	}
	return packet.EthernetLen + packet.IPv4MinLen + packet.UDPLen + packet.BTHLen
}

// PSNHeaders names the headers PSNBytes counts.
func (s HeaderStack) PSNHeaders() string {
	switch s {
	case RoCEv2IPv6:
		return "Ethernet, IPv6, UDP and BTH"
	case LeanNative:
		return "LRH and BTH"
	case UET:
		return "Ethernet, IPv4, UDP and PDS"
	}
	return "Ethernet, IPv4, UDP and BTH"
}

// Recovery is the loss recovery scheme.
type Recovery uint8

const (
	// GoBackN rewinds to the first lost packet and resends everything
	// after it; the receiver drops out-of-order packets and NAKs.
	GoBackN Recovery = iota
	// SelectiveRepeat resends only lost packets; the receiver keeps
	// out-of-order packets (placing them directly or in a reorder buffer)
	// and reports them with SACK.
	SelectiveRepeat
)

// Config is one NIC.
type Config struct {
	// ID is the NIC's endpoint address (IPv4 10.x.y.z with x.y.z = ID).
	ID uint32
	// Stack is the header stack; MTU the payload bytes per packet (256 to
	// 4096).
	Stack HeaderStack
	MTU   int
	// ClockPeriod is the NIC core clock (1.25 GHz default, E).
	ClockPeriod rtlmodel.Time
	// Wire is the NIC's 400G port (FACTS 3; 4 lanes).
	Wire serdes.WireConfig
	// TxCycles is the transmit pipeline from a scheduling decision to the
	// MAC: WQE parse, header build, CC gate (FACTS 6.2: 80-150 ns, E).
	TxCycles uint64
	// RxCycles is the receive pipeline from the MAC to placement: parse,
	// QPC lookup, R_Key/MTT translation, ICRC check (FACTS 6.2: 80-150 ns,
	// E).
	RxCycles uint64
	// Recovery selects go-back-N or selective repeat; RTO is the
	// retransmission timeout.
	Recovery Recovery
	RTO      rtlmodel.Time
	// RetryCount is how many times a QP resends after transport timeouts
	// in a row, with no acknowledgement moving it on in between, before it
	// fails: the RC QP's retry_cnt, a 3-bit attribute, 0 to 7
	// (ibv_modify_qp(3)). A failed QP completes the message it was sending
	// with StatusRetryExceeded and every other one posted to it with
	// StatusFlushed, and sends nothing more. DefaultConfig takes 7, the
	// most the field holds (E).
	RetryCount int
	// ReorderPackets is the receive reorder buffer per QP for packets that
	// carry no address (RoCE MIDDLE/LAST): a slot for each of the PSNs
	// after the expected one, as a receive window is (a UET receiver
	// likewise refuses a PSN out of its window, NACK PSN_OOR_WINDOW:
	// FACTS 2, NACK codes, S [R21]), so a packet more
	// than ReorderPackets past the expected PSN is dropped however few
	// are held, and packets far ahead never take the room of those right
	// behind a hole; 0 makes the receiver drop them out of order. Packets
	// with an address are placed directly. A drop beyond the buffer NAKs
	// the hole (nakHole); under EQDS it also NACKs the dropped packet and
	// pulls for it, as a go-back-N receiver does (eqdsOnDropped).
	ReorderPackets int
	// ReorderTolerance is how many later packets a SACK must report before
	// selective repeat takes a hole as lost: 3 like TCP's duplicate ACKs
	// for a single path (E); sprayed traffic needs about the packets in
	// flight on the longest path.
	ReorderTolerance int
	// RecvWindow is the PSN bitmap window per QP (power of two).
	RecvWindow int
	// OOOReads has a READ requester place responses that arrive out of
	// order, as a QP with out-of-order RW data placement does (ConnectX-5
	// and later: Mellanox OFED's IB_EXP_DEVICE_OOO_RW_DATA_PLACEMENT,
	// "handling RDMA reads and writes received out of order",
	// include/rdma/ib_verbs_exp.h in mlnx-ofa_kernel; UCX's RC transport
	// leaves it off by default, its OOO_RW setting "n"). A response's
	// offset follows from the PSN the read reserved for it; one up to
	// RecvWindow PSNs past the first missing one is placed, and the read
	// is issued again from the gap once ReorderTolerance responses are
	// held beyond it and the gap's response is overdue (nic_read_gap.go).
	// Off (the default), the requester takes responses in
	// PSN order, as IBTA's RC does, and issues the read again at the
	// first gap.
	OOOReads bool
	// AckEvery coalesces ACKs: one per AckEvery packets received in order,
	// or after AckDelay, whichever first; out-of-order arrivals are
	// acknowledged at once with a SACK.
	AckEvery int
	AckDelay rtlmodel.Time
	// CC selects the congestion control ("none", "dcqcn", "dcqcn-fw" and the
	// others the package provides); CNPInterval is the DCQCN notification
	// point's minimum CNP spacing per QP. The notification point runs only
	// under dcqcn and dcqcn-fw: no other algorithm reads CNPs.
	CC          string
	CNPInterval rtlmodel.Time
	// EQDSBaseRTT is the unloaded round trip EQDS ("eqds") sizes its
	// speculative first window (one BDP) and largest window (1.5 BDP)
	// from; 0 takes DefaultEQDSBaseRTT (E).
	EQDSBaseRTT rtlmodel.Time
	// HPCCBaseRTT is T, the base round trip HPCC ("hpcc") measures its
	// utilisation, paces its window and sizes its largest window against;
	// 0 takes DefaultHPCCBaseRTT (FACTS 2.2). Package fabric sets it, when
	// 0, to its fabric's largest unloaded round trip, as the artifact's
	// one T for the network.
	HPCCBaseRTT rtlmodel.Time
	// Paths selects multipath entropy: "fixed", "spray" (oblivious over
	// PathSet entropies) or "pathaware".
	Paths   string
	PathSet int
	// QPs is the number of QP contexts; QPCache configures the on-chip
	// context cache in front of the host-memory backing store.
	QPs     int
	QPCache QPCacheConfig
	// Prefetch fetches a QP's context when its doorbell arrives, before
	// the scheduler needs it.
	Prefetch bool
	// ContextFetches is how many QP context reads may be in flight at once
	// (the cache's miss-handling registers, E); a QP that misses beyond
	// that waits for one to finish.
	ContextFetches int
	// Host is the host interface (PCIe and memory); nil builds the PCIe
	// Gen5 x16 model (PCIeHostSide) and takes the QP cache's miss latency
	// from it.
	Host HostSide
	// NoICRC skips sealing and checking the ICRC (nic_icrc.go), about a
	// tenth of the NIC's model time with small packets, for large runs
	// where no header is corrupted on the way; the default checks it.
	NoICRC bool
	// Seed seeds the NIC's random streams.
	Seed uint64
	// GatewayMAC is the Ethernet destination of every frame the NIC
	// sends on a routed fabric: its first-hop switch port's MAC, whose
	// rewrite gives the frame the next hop's. Zero, the default, sends a
	// frame to its destination NIC's own MAC (MAC), as between NICs on
	// one cable.
	GatewayMAC [6]byte
}

// MaxRetryCount is the largest Config.RetryCount: the most a 3-bit
// retry_cnt holds.
const MaxRetryCount = 7

// MinMTU and MaxMTU bound Config.MTU, the payload bytes per packet the
// NIC model accepts (FACTS 1.4's efficiency figures use 4096).
const (
	MinMTU = 256
	MaxMTU = 4096
)

// DefaultConfig is a 400G NIC with RoCEv2/IPv4, MTU 4096, DCQCN with the
// paper's parameters and selective repeat.
func DefaultConfig(id uint32) Config {
	return Config{
		ID: id, Stack: RoCEv2IPv4, MTU: 4096,
		ClockPeriod: 800,
		Wire: serdes.WireConfig{Lanes: 4, Interleave: 2, CableMillimetres: 2000,
			TxLatency: 25 * rtlmodel.Nanosecond, RxPipeline: 45 * rtlmodel.Nanosecond},
		TxCycles: 125, RxCycles: 125, // 100 ns each at 1.25 GHz (FACTS 6.2: 80-150 ns, E)
		Recovery: SelectiveRepeat, RTO: 200 * rtlmodel.Microsecond, RetryCount: MaxRetryCount,
		ReorderPackets: 256, RecvWindow: 1024, ReorderTolerance: 3,
		AckEvery: 4, AckDelay: 2 * rtlmodel.Microsecond,
		CC: "dcqcn", CNPInterval: NPIntervalPaper,
		Paths: "fixed", PathSet: 256,
		QPs: 1024, QPCache: DefaultQPCacheConfig(), ContextFetches: 32,
		Seed: uint64(id) + 1,
	}
}

func (c *Config) validate() error {
	switch {
	case c.MTU < MinMTU || c.MTU > MaxMTU:
		return fmt.Errorf("nic %d: MTU %d outside %d..%d", c.ID, c.MTU, MinMTU, MaxMTU)
	case c.ClockPeriod == 0 || c.TxCycles < 1 || c.RxCycles < 1:
		return fmt.Errorf("nic %d: clock and pipelines need at least one cycle", c.ID)
	case c.ReorderTolerance < 1:
		return fmt.Errorf("nic %d: ReorderTolerance must be at least 1", c.ID)
	case c.AckEvery < 1:
		return fmt.Errorf("nic %d: AckEvery must be at least 1", c.ID)
	case c.QPs < 1:
		return fmt.Errorf("nic %d: at least one QP", c.ID)
	case c.ContextFetches < 1:
		return fmt.Errorf("nic %d: ContextFetches must be at least 1", c.ID)
	case c.RetryCount < 0 || c.RetryCount > MaxRetryCount:
		return fmt.Errorf("nic %d: RetryCount %d outside 0..%d (a 3-bit retry_cnt)", c.ID, c.RetryCount, MaxRetryCount)
	}
	return nil
}
