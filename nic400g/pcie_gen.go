package nic400g

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/serdes"
)

// PCIeGen is a PCI Express generation: it fixes the per-lane transfer
// rate, the line coding and the per-TLP framing (FACTS 5.2).
type PCIeGen uint8

// The generations the model knows. Gen5 is the default of the 400G NIC
// (FACTS 5.2: 32 GT/s per lane, 128b/130b).
const (
	// Gen1 is 2.5 GT/s per lane with 8b/10b coding (U).
	Gen1 PCIeGen = 1 + iota
	// Gen2 is 5 GT/s per lane with 8b/10b coding (U).
	Gen2
	// Gen3 is 8 GT/s per lane with 128b/130b coding (S [R47]: "Gen3
	// links use 128b/130b encoding").
	Gen3
	// Gen4 is 16 GT/s per lane with 128b/130b coding (U).
	Gen4
	// Gen5 is 32 GT/s per lane with 128b/130b coding (FACTS 5.2, E).
	Gen5
	// Gen6 is 64 GT/s per lane (PAM4) in flit mode: 256-byte flits of
	// 236 TLP bytes, 6 DLLP bytes, 8 CRC bytes and 6 FEC bytes, with no
	// per-TLP framing or LCRC (U: recalled from the 6.0 specification,
	// not re-checked).
	Gen6
)

// Flit layout of Gen6 (U, see Gen6).
const (
	gen6FlitBytes = 256
	gen6TLPBytes  = 236
)

// String names the generation ("Gen5").
func (g PCIeGen) String() string {
	if g.Valid() {
		return fmt.Sprintf("Gen%d", uint8(g))
	}
	return fmt.Sprintf("PCIeGen(%d)", uint8(g))
}

// Valid reports whether g is one of Gen1..Gen6.
func (g PCIeGen) Valid() bool { return g >= Gen1 && g <= Gen6 }

// TransferRate returns the per-lane rate in transfers (line bits) per
// second: 2.5, 5, 8, 16, 32 and 64 GT/s for Gen1..Gen6 (Gen5: FACTS 5.2).
// It panics for an invalid generation.
func (g PCIeGen) TransferRate() uint64 {
	switch g {
	case Gen1:
		return 2_500_000_000
	case Gen2:
		return 5_000_000_000
	case Gen3:
		return 8_000_000_000
	case Gen4:
		return 16_000_000_000
	case Gen5:
		return 32_000_000_000
	case Gen6:
		return 64_000_000_000
	}
	panic(fmt.Sprintf("nic400g: invalid PCIe generation %d", uint8(g)))
}

// Coding returns the fraction of line bits that carry TLP and DLLP
// bytes: 8/10 for Gen1–2, 128/130 for Gen3–5 (S [R47]: two sync bits per
// 128-bit block, 1.56 %), and for Gen6 the flit's 236 TLP bytes of 256
// (U). It panics for an invalid generation.
func (g PCIeGen) Coding() serdes.Rat {
	switch g {
	case Gen1, Gen2:
		return serdes.NewRat(8, 10)
	case Gen3, Gen4, Gen5:
		return serdes.NewRat(128, 130)
	case Gen6:
		return serdes.NewRat(gen6TLPBytes, gen6FlitBytes)
	}
	panic(fmt.Sprintf("nic400g: invalid PCIe generation %d", uint8(g)))
}

// CodingName names the line coding ("128b/130b").
func (g PCIeGen) CodingName() string {
	switch g {
	case Gen1, Gen2:
		return "8b/10b"
	case Gen3, Gen4, Gen5:
		return "128b/130b"
	case Gen6:
		return "flit 236/256"
	}
	return "invalid"
}

// FramingBytes returns the per-TLP bytes added by the data link and
// physical layers around the header, payload and ECRC: 8 bytes for
// Gen1–5 (Gen1–2: STP and END symbols, 2-byte sequence number, 4-byte
// LCRC; Gen3–5: 4-byte STP token carrying the sequence number, 4-byte
// LCRC; the byte split is U, the 5–7 DW total with a 3–4 DW header is S
// [R47]) and 0 for Gen6, whose flit carries sequence number and CRC once
// per flit (U).
func (g PCIeGen) FramingBytes() uint32 {
	if g == Gen6 {
		return 0
	}
	return 8
}
