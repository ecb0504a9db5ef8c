package nic400g

import (
	"github.com/fabricmodel/fabricmodel/serdes"
)

// TLP arithmetic of a PCIeConfig (FACTS 5.2). A TLP on the wire is its
// framing (PCIeGen.FramingBytes), a 3- or 4-DW header, its payload and an
// optional 1-DW ECRC: 5–7 DW of overhead (S [R47]). Sizes are bytes and
// requests start aligned to the split sizes (see PCIeConfig).

// DWBytes is the size of a PCIe double word.
const DWBytes = 4

// cplHeaderDW is the header size of a completion with data (U).
const cplHeaderDW = 3

func pcieCeilDiv(n, d uint64) uint64 { return (n + d - 1) / d }

func (c *PCIeConfig) tlpOverhead(hdrDW uint32) uint32 {
	o := c.Gen.FramingBytes() + hdrDW*DWBytes
	if c.ECRC {
		o += DWBytes
	}
	return o
}

// MemOverhead returns the per-TLP overhead of a memory request (posted
// write, MMIO write or read request): framing, a 4-DW header with Addr64
// or a 3-DW one without, and the ECRC if enabled. 24 bytes by default
// (6 DW, the overhead behind FACTS 5.2's effective rates, E).
func (c *PCIeConfig) MemOverhead() uint32 {
	if c.Addr64 {
		return c.tlpOverhead(4)
	}
	return c.tlpOverhead(3)
}

// CplOverhead returns the per-TLP overhead of a completion with data:
// framing, a 3-DW header and the ECRC if enabled (20 bytes by default).
func (c *PCIeConfig) CplOverhead() uint32 { return c.tlpOverhead(cplHeaderDW) }

// CplSize returns the largest completion payload under the split rule:
// MPS for CplAtMPS, RCB for CplAtRCB.
func (c *PCIeConfig) CplSize() uint32 {
	if c.Completions == CplAtRCB {
		return c.RCB
	}
	return c.MPS
}

// WriteTLPs returns the TLPs of a posted write of n bytes: ⌈n/MPS⌉.
func (c *PCIeConfig) WriteTLPs(n uint64) uint64 { return pcieCeilDiv(n, uint64(c.MPS)) }

// WriteWireBytes returns the link bytes of a posted write of n bytes:
// the payload plus MemOverhead per TLP.
func (c *PCIeConfig) WriteWireBytes(n uint64) uint64 {
	return n + c.WriteTLPs(n)*uint64(c.MemOverhead())
}

// splitWireBytes returns the link bytes of a posted write of n bytes cut
// into TLPs of at most tlpMax bytes (an MMIO write cut by the CPU's
// write-combining buffer rather than by MPS).
func (c *PCIeConfig) splitWireBytes(n uint64, tlpMax uint32) uint64 {
	return n + pcieCeilDiv(n, uint64(min(tlpMax, c.MPS)))*uint64(c.MemOverhead())
}

// ReadRequests returns the read request TLPs of a read of n bytes:
// ⌈n/MRRS⌉.
func (c *PCIeConfig) ReadRequests(n uint64) uint64 { return pcieCeilDiv(n, uint64(c.MRRS)) }

// ReadRequestWireBytes returns the link bytes of the read requests of a
// read of n bytes (MemOverhead each; requests carry no payload).
func (c *PCIeConfig) ReadRequestWireBytes(n uint64) uint64 {
	return c.ReadRequests(n) * uint64(c.MemOverhead())
}

// requestCpls returns the completions of one request of r bytes.
func (c *PCIeConfig) requestCpls(r uint64) uint64 { return pcieCeilDiv(r, uint64(c.CplSize())) }

// CompletionTLPs returns the completion TLPs returned for a read of n
// bytes: each MRRS request is split at CplSize.
func (c *PCIeConfig) CompletionTLPs(n uint64) uint64 {
	if n == 0 {
		return 0
	}
	mrrs := uint64(c.MRRS)
	full, last := (n-1)/mrrs, n-(n-1)/mrrs*mrrs
	return full*c.requestCpls(mrrs) + c.requestCpls(last)
}

// CompletionWireBytes returns the link bytes of the completions of a read
// of n bytes: the data plus CplOverhead per completion.
func (c *PCIeConfig) CompletionWireBytes(n uint64) uint64 {
	return n + c.CompletionTLPs(n)*uint64(c.CplOverhead())
}

// RawRate returns the exact bit rate per direction after line coding and
// before any TLP or DLLP overhead: TransferRate × Lanes × Coding. Gen5 x16
// is 32768e9/65 b/s = 63.0 GB/s (FACTS 5.2).
func (c *PCIeConfig) RawRate() serdes.Rate {
	return serdes.RateBPS(c.Gen.TransferRate() * uint64(c.Lanes)).Scale(c.Gen.Coding())
}

// LinkRate returns the exact rate left for TLP bytes per direction:
// RawRate × (1 − DLLPOverhead).
func (c *PCIeConfig) LinkRate() serdes.Rate {
	return c.RawRate().Scale(serdes.IntRat(1).Sub(c.DLLPOverhead))
}

// ByteTime returns the exact time of one TLP byte on the link, in ps:
// 8125/512 ps (15.869 ps) for Gen5 x16 without DLLP overhead.
func (c *PCIeConfig) ByteTime() serdes.Rat {
	return serdes.IntRat(8 * 1_000_000_000_000).Div(c.LinkRate().BitsPerSecond())
}

// WireTime returns the exact link time of wireBytes TLP bytes, in ps.
func (c *PCIeConfig) WireTime(wireBytes uint64) serdes.Rat {
	return c.ByteTime().Mul(serdes.IntRat(wireBytes))
}

// PostedWriteWireTime returns the exact link time of a posted write of n
// bytes, in ps: a 4096-byte write at MPS 256 is 16 TLPs of 280 bytes,
// 71,093.75 ps on Gen5 x16.
func (c *PCIeConfig) PostedWriteWireTime(n uint64) serdes.Rat {
	return c.WireTime(c.WriteWireBytes(n))
}

// ReadWireTimes returns the exact link times of a read of n bytes, in ps:
// its requests on the NIC-to-host direction and its completions on the
// host-to-NIC direction.
func (c *PCIeConfig) ReadWireTimes(n uint64) (requests, completions serdes.Rat) {
	return c.WireTime(c.ReadRequestWireBytes(n)), c.WireTime(c.CompletionWireBytes(n))
}

// WriteEfficiency returns the exact payload fraction of the link's raw
// rate for a stream of posted writes of full TLPs of mps bytes:
// mps/(mps + MemOverhead) × (1 − DLLPOverhead). By default 256/280 and
// 512/536 (FACTS 5.2, E).
func (c *PCIeConfig) WriteEfficiency(mps uint32) serdes.Rat {
	return serdes.NewRat(uint64(mps), uint64(mps+c.MemOverhead())).
		Mul(serdes.IntRat(1).Sub(c.DLLPOverhead))
}

// ReadEfficiency returns the exact payload fraction of the raw rate for
// a stream of full completions (CplSize bytes each) in the host-to-NIC
// direction.
func (c *PCIeConfig) ReadEfficiency() serdes.Rat {
	s := uint64(c.CplSize())
	return serdes.NewRat(s, s+uint64(c.CplOverhead())).Mul(serdes.IntRat(1).Sub(c.DLLPOverhead))
}

// WritePayloadRate returns the exact payload rate of back-to-back posted
// writes of full mps-byte TLPs: RawRate × WriteEfficiency(mps). Gen5 x16
// gives 57.6 GB/s at MPS 256 and 60.2 GB/s at MPS 512 (FACTS 5.2, E).
func (c *PCIeConfig) WritePayloadRate(mps uint32) serdes.Rate {
	return c.RawRate().Scale(c.WriteEfficiency(mps))
}

// ReadPayloadRate returns the exact rate of read data arriving at the NIC
// in back-to-back full completions: RawRate × ReadEfficiency.
func (c *PCIeConfig) ReadPayloadRate() serdes.Rate {
	return c.RawRate().Scale(c.ReadEfficiency())
}
