package nic400g

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/serdes"
)

// CplSplit says how a completer splits the data of one read request into
// completion TLPs (FACTS 5.2: "read completions split at RCB granularity
// are worse").
type CplSplit uint8

const (
	// CplAtMPS returns completions of up to MPS bytes each, split only at
	// RCB-aligned boundaries as the specification allows (U).
	CplAtMPS CplSplit = iota
	// CplAtRCB returns one completion per RCB (64 or 128 bytes), as root
	// complexes that complete cache line by cache line do (E).
	CplAtRCB
)

// String names the split ("mps", "rcb").
func (s CplSplit) String() string {
	switch s {
	case CplAtMPS:
		return "mps"
	case CplAtRCB:
		return "rcb"
	}
	return fmt.Sprintf("CplSplit(%d)", uint8(s))
}

// PCIeConfig describes the PCIe link between the NIC and the host's root
// complex and the fixed latencies around it (FACTS 5.1, 5.2, 6.2). All
// sizes are bytes. Requests are assumed to start at addresses aligned to
// the split sizes (MPS, MRRS, RCB), so no TLP crosses a 4 KB boundary and
// each split is a plain division.
type PCIeConfig struct {
	// Gen is the generation (rate, coding and framing). Default Gen5
	// (FACTS 5.2).
	Gen PCIeGen
	// Lanes is the link width: 1, 2, 4, 8 or 16. Default 16 (FACTS 5.2).
	Lanes uint32
	// MPS is the Max_Payload_Size of posted writes and completions,
	// 128..4096, a power of two. Default 256 (FACTS 5.2: MPS 256/512).
	MPS uint32
	// MRRS is the Max_Read_Request_Size, 128..4096, a power of two.
	// Default 512 (E: a common platform default).
	MRRS uint32
	// RCB is the read completion boundary, 64 or 128. Default 64 (FACTS
	// 5.2, E).
	RCB uint32
	// Completions is the completer's split rule. Default CplAtMPS (E):
	// at 64-byte completions a Gen5 x16 link carries 48.0 GB/s of read
	// data, under the 50 GB/s of 400 Gb/s, so CplAtRCB is kept for
	// studies of that case.
	Completions CplSplit
	// Addr64 selects 4-DW memory request headers (64-bit addresses, host
	// memory above 4 GB and 64-bit BARs); false selects 3-DW headers.
	// Completions always have a 3-DW header. Default true: the 6-DW TLP
	// overhead that gives FACTS 5.2's 57.6 and 60.2 GB/s (E, [R47]).
	Addr64 bool
	// ECRC adds the optional 1-DW end-to-end CRC to every TLP (S [R47]:
	// 7 DW with ECRC). Default false.
	ECRC bool
	// DLLPOverhead is the fraction of each direction's TLP bandwidth taken
	// by ACK/NAK and flow-control DLLPs and SKP ordered sets (E). Zero
	// (the default, and the zero value) reproduces FACTS 5.2, whose
	// figures count TLP overhead only, as [R47c] does. A working estimate
	// is 1/64: an 8-byte ACK and an 8-byte UpdateFC DLLP per four 280-byte
	// TLPs is 1.4 % (DLLPs are two DW, S [R47]), SKP ordered sets about
	// 0.3 % (E). Must be below 1/2. Gen6 carries DLLPs in the flit's
	// DLLP bytes, so zero is right there.
	DLLPOverhead serdes.Rat
	// OneWay is the fixed latency from the last byte of a TLP leaving its
	// sender's link serialiser to the TLP being usable at the other end:
	// PHY and data-link pipelines of both ports, any PCIe switch and the
	// root complex's ordering and coherence logic. Default 125 ns (E: with
	// HostConfig.MMIOIssue it puts the doorbell of FACTS 6.2 at 150–250 ns
	// and with CompleterLatency the read round trip of FACTS 5.1 at
	// 0.5–1.0 µs).
	OneWay rtlmodel.Time
	// CompleterLatency is the time from a read request arriving at the
	// root complex to its first completion being ready to send: IOTLB
	// (IOMMU off), coherence and the memory or LLC read. Default 400 ns
	// (E: a 64-byte read round trip of 651.7 ns on an idle link, inside
	// FACTS 5.1's 0.5–1.0 µs and 6.2's +500–900 ns; [R48] shows the
	// latency qualitatively).
	CompleterLatency rtlmodel.Time
}

// DefaultPCIeConfig returns Gen5 x16, MPS 256, MRRS 512, RCB 64,
// completions at MPS, 4-DW headers, no ECRC, no DLLP overhead, 125 ns one
// way and 400 ns completer latency (see the fields for the sources).
func DefaultPCIeConfig() PCIeConfig {
	return PCIeConfig{
		Gen: Gen5, Lanes: 16, MPS: 256, MRRS: 512, RCB: 64,
		Completions: CplAtMPS, Addr64: true,
		OneWay:           125 * rtlmodel.Nanosecond,
		CompleterLatency: 400 * rtlmodel.Nanosecond,
	}
}

func pciePow2In(v, lo, hi uint32) bool { return v >= lo && v <= hi && v&(v-1) == 0 }

// Validate reports a configuration the link cannot run, naming the field.
func (c *PCIeConfig) Validate() error {
	switch {
	case !c.Gen.Valid():
		return fmt.Errorf("pcie: Gen %d; want 1..6", uint8(c.Gen))
	case !pciePow2In(c.Lanes, 1, 16):
		return fmt.Errorf("pcie: Lanes %d; want 1, 2, 4, 8 or 16", c.Lanes)
	case !pciePow2In(c.MPS, 128, 4096):
		return fmt.Errorf("pcie: MPS %d; want a power of two in 128..4096", c.MPS)
	case !pciePow2In(c.MRRS, 128, 4096):
		return fmt.Errorf("pcie: MRRS %d; want a power of two in 128..4096", c.MRRS)
	case c.RCB != 64 && c.RCB != 128:
		return fmt.Errorf("pcie: RCB %d; want 64 or 128", c.RCB)
	case c.Completions != CplAtMPS && c.Completions != CplAtRCB:
		return fmt.Errorf("pcie: Completions %d; want CplAtMPS or CplAtRCB", uint8(c.Completions))
	case c.DLLPOverhead.Cmp(serdes.NewRat(1, 2)) >= 0:
		return fmt.Errorf("pcie: DLLPOverhead %v; want below 1/2", c.DLLPOverhead)
	}
	return nil
}
