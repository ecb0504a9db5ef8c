package nic400g

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// HostConfig describes the host side of the NIC's host interface: the
// CPU's MMIO path, the sizes of the structures the NIC moves over PCIe,
// and how soon a polling CPU sees a completion (FACTS 5.1, 6.2). Sizes
// are bytes.
type HostConfig struct {
	// MMIOIssue is the time from the CPU's store to the doorbell register
	// (after the write-combining flush) to the write entering the PCIe
	// link at the root complex. Default 40 ns (E: with the link's OneWay
	// it puts the doorbell of FACTS 6.2 at 150–250 ns).
	MMIOIssue rtlmodel.Time
	// WCBytes is the CPU's write-combining buffer, the largest MMIO write
	// TLP it emits. Default 64, one cache line (E).
	WCBytes uint32
	// InlineMax is the largest WQE the CPU writes whole with the doorbell
	// (BlueFlame style), so the NIC need not fetch it; 0 disables inline
	// doorbells. Default 256 (the mlx5 driver uses half of the device's
	// BlueFlame register, (1 << log_bf_reg_size)/2, S; a 512-byte register
	// is U). FACTS 6.2's budget assumes an inline WQE.
	InlineMax uint32
	// DoorbellBytes is the MMIO write of a doorbell without inline WQE.
	// Default 8 (a 64-bit doorbell register write, U).
	DoorbellBytes uint32
	// WQEBB is the WQE basic block: WQEs are whole blocks, and a fetched
	// or inline WQE moves whole blocks. Default 64 (FACTS 6.2: "a WQE
	// DMA read of 64 B", E).
	WQEBB uint32
	// CQEBytes is the completion queue entry. Default 64 (E; hns uses 32,
	// FACTS 5.1 S [R46]).
	CQEBytes uint32
	// QPCBytes is the QP context read from host memory on a cache miss.
	// Default 256 (FACTS 5.1: hns QPC 256 B, S [R46]; mlx5's visible QPC
	// is 232 B).
	QPCBytes uint32
	// PollLatency is the time from a CQE arriving at the root complex to
	// the polling CPU seeing it: the write lands in the last-level cache
	// and the core's next poll misses its private caches. Default 30 ns
	// (E: with the link it puts FACTS 6.2's "DMA write of data and CQE
	// until visible" at 150–300 ns).
	PollLatency rtlmodel.Time
}

// DefaultHostConfig returns 40 ns MMIO issue, 64-byte write combining,
// inline WQEs up to 256 bytes, 8-byte doorbells, 64-byte WQE blocks and
// CQEs, 256-byte QP contexts and 30 ns poll latency (see the fields).
func DefaultHostConfig() HostConfig {
	return HostConfig{
		MMIOIssue: 40 * rtlmodel.Nanosecond, WCBytes: 64, InlineMax: 256,
		DoorbellBytes: 8, WQEBB: 64, CQEBytes: 64, QPCBytes: 256,
		PollLatency: 30 * rtlmodel.Nanosecond,
	}
}

// Validate reports a configuration the host model cannot run, naming the
// field.
func (c *HostConfig) Validate() error {
	switch {
	case !pciePow2In(c.WCBytes, DWBytes, 4096):
		return fmt.Errorf("host: WCBytes %d; want a power of two in 4..4096", c.WCBytes)
	case c.InlineMax > 4096:
		return fmt.Errorf("host: InlineMax %d; want at most 4096", c.InlineMax)
	case c.DoorbellBytes == 0 || c.DoorbellBytes%DWBytes != 0 || c.DoorbellBytes > c.WCBytes:
		return fmt.Errorf("host: DoorbellBytes %d; want whole DWs, at most WCBytes", c.DoorbellBytes)
	case !pciePow2In(c.WQEBB, 16, 4096):
		return fmt.Errorf("host: WQEBB %d; want a power of two in 16..4096", c.WQEBB)
	case c.CQEBytes == 0 || c.CQEBytes%DWBytes != 0:
		return fmt.Errorf("host: CQEBytes %d; want whole DWs", c.CQEBytes)
	case c.QPCBytes == 0:
		return fmt.Errorf("host: QPCBytes 0; want a positive size")
	}
	return nil
}

// hostRoundUp rounds n up to a multiple of m.
func hostRoundUp(n, m uint64) uint64 { return pcieCeilDiv(n, m) * m }
