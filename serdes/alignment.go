package serdes

// TranscodedBlockBits is the size of one 256b/257b transcoded block.
// FACTS 3 [R23][R25].
const TranscodedBlockBits = 257

// BlocksPerCodeword is the number of 257b blocks in the message of one
// RS(544,514) codeword: 5140 / 257 = 20. FACTS 3 [R25].
const BlocksPerCodeword = RS544MessageBits / TranscodedBlockBits

// AMPlan describes the alignment markers of one PCS: how often they come
// and how much of the FEC message space they take. The PCS makes room for
// them by deleting idles between frames, so the MAC keeps its exact rate and
// the markers cost no line rate of their own; what they cost is idle
// bandwidth, which the MAC's minimum inter-packet gap always supplies
// (IdleSupply). FACTS 3 [R23] ("AMs inserted by removing idles").
type AMPlan struct {
	// Name names the PCS.
	Name string
	// CodewordsPerPeriod is the AM period in RS(544,514) codewords.
	CodewordsPerPeriod uint64
	// AMBits is the message space the markers of one period occupy, in
	// bits; a whole number of 257b blocks.
	AMBits uint64
}

// AM100GCL91 is the 100GBASE-R clause 91 plan: 20 PCS lane markers every
// 16,384 66b blocks per lane (FACTS 3 [R75]), which is once per 4096
// codewords (tag E from S, FACTS 3 "AM period, 100G CL91"). The 20 markers
// are 20 66b blocks, transcoded into five 257b blocks (1285 bits: 20 x 64
// marker bits plus 5 pad bits), tag E from the same row and the clause 91
// model cited at GFPoly.
var AM100GCL91 = AMPlan{Name: "100GBASE-R CL91", CodewordsPerPeriod: 4096, AMBits: 5 * TranscodedBlockBits}

// AM400G is the 400GBASE-R plan: once every 163,840 257b blocks = 8192
// codewords (tag U, FACTS 3 "AM period, 400G"). The marker group holds
// 16 PCS lanes x 120 bits = 1920 bits (a 48-bit common marker, then pads and
// unique marker bytes per lane: FACTS 3 [R26], whose register layout gives
// 48 + 8 + 64 bits per lane). It is taken here as occupying eight 257b
// blocks (2056 bits, padding included; tag U, the padding as recalled from
// clause 119 and not re-checked), so AMBits is the field to change when it is.
var AM400G = AMPlan{Name: "400GBASE-R", CodewordsPerPeriod: 8192, AMBits: 8 * TranscodedBlockBits}

// PeriodMessageBits returns the FEC message bits of one period.
func (a AMPlan) PeriodMessageBits() uint64 { return a.CodewordsPerPeriod * RS544MessageBits }

// Overhead returns the fraction of the FEC message space the markers take,
// exactly: AMBits / PeriodMessageBits (1/16384 for clause 91).
func (a AMPlan) Overhead() Rat { return NewRat(a.AMBits, a.PeriodMessageBits()) }

// PeriodTime returns the exact duration of one AM period in picoseconds on
// a line of the given rate: CodewordsPerPeriod x 5440 bits.
func (a AMPlan) PeriodTime(line Rate) Rat {
	return line.SerialTime(a.CodewordsPerPeriod * RS544CodewordBits)
}

// IdleBytesRemoved returns the idle bytes the PCS deletes per period to
// carry the markers: the MAC-side size of AMBits, AMBits x 256/257 / 8
// (160 bytes for clause 91: twenty 8-byte idle blocks).
func (a AMPlan) IdleBytesRemoved() Rat {
	return NewRat(a.AMBits*256, TranscodedBlockBits*8)
}

// MACBytesPerPeriod returns the MAC bytes one period carries when the
// markers are not counted: PeriodMessageBits x 256/257 / 8.
func (a AMPlan) MACBytesPerPeriod() Rat {
	return NewRat(a.PeriodMessageBits()*256, TranscodedBlockBits*8)
}

// IdleSupply returns the idle bytes a period carries in the worst case for
// idles, back-to-back frames of frameBytes (FCS included) each followed by
// the 8-byte preamble/SFD and the 12-byte minimum gap (FACTS 1.1 [R51]):
// the whole frames that fit in MACBytesPerPeriod times 12. The markers are
// carried without touching the MAC rate when IdleSupply >= IdleBytesRemoved.
func (a AMPlan) IdleSupply(frameBytes uint64) uint64 {
	const preamble, ipg = 8, 12
	slot := frameBytes + preamble + ipg
	whole := a.MACBytesPerPeriod().Num() / a.MACBytesPerPeriod().Den() / slot
	return whole * ipg
}
