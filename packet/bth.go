package packet

// BTH constants (FACTS 1.2 [R1][R2][R5]).
const (
	// BTHLen is the base transport header: three 32-bit words.
	BTHLen = 12
	// DefaultPKey is the default partition key (FACTS 1.2 [R2]).
	DefaultPKey uint16 = 0xFFFF
	// PSNMask keeps the 24 bits of a packet sequence number.
	PSNMask = 1<<24 - 1
	// QPNMask keeps the 24 bits of a queue pair number.
	QPNMask = 1<<24 - 1
)

// BTH is the InfiniBand base transport header, also carried by RoCEv2
// (FACTS 1.2, bit positions [R5]):
//
//	w0: OpCode[31:24] SE[23] M[22] PadCnt[21:20] TVer[19:16] P_Key[15:0]
//	w1: FECN[31] BECN[30] Rsvd6[29:24] DestQP[23:0]
//	w2: AckReq[31] Rsvd7[30:24] PSN[23:0]
//
// Decode rejects opcodes outside the known set (OpCode.Known) and any TVer
// other than 0. Reserved bits are kept so that encode(decode(b)) == b.
type BTH struct {
	OpCode OpCode
	SE     bool   // solicited event
	M      bool   // migration request
	PadCnt uint8  // 2 bits: pad bytes before the ICRC
	TVer   uint8  // 4 bits: transport header version, 0
	PKey   uint16 // partition key
	FECN   bool   // forward ECN (IB); reserved in RoCEv2
	BECN   bool   // backward ECN; set in a RoCEv2 CNP
	Rsvd6  uint8  // 6 reserved bits of w1
	DestQP uint32 // 24 bits
	AckReq bool   // acknowledge request
	Rsvd7  uint8  // 7 reserved bits of w2
	PSN    uint32 // 24 bits
}

var bthLayout = []span{{0, "OpCode"}, {1, "TVer"}, {2, "PKey"}, {4, "FECN"}, {5, "DestQP"}, {8, "AckReq"}, {9, "PSN"}}

// Encode writes the header into b.
func (h *BTH) Encode(b []byte) (int, error) {
	if len(b) < BTHLen {
		return 0, short("BTH", BTHLen, len(b))
	}
	if h.PadCnt>>2|h.TVer>>4|h.Rsvd6>>6|h.Rsvd7>>7 != 0 || (h.DestQP|h.PSN)>>24 != 0 {
		return 0, h.wideField()
	}
	be.PutUint32(b[0:], uint32(h.OpCode)<<24|b2u(h.SE)<<23|b2u(h.M)<<22|uint32(h.PadCnt)<<20|
		uint32(h.TVer)<<16|uint32(h.PKey))
	be.PutUint32(b[4:], b2u(h.FECN)<<31|b2u(h.BECN)<<30|uint32(h.Rsvd6)<<24|h.DestQP)
	be.PutUint32(b[8:], b2u(h.AckReq)<<31|uint32(h.Rsvd7)<<24|h.PSN)
	return BTHLen, nil
}

// Decode reads the header from the start of b.
func (h *BTH) Decode(b []byte) error {
	if len(b) < BTHLen {
		return cut("BTH", bthLayout, BTHLen, len(b))
	}
	w0, w1, w2 := be.Uint32(b[0:]), be.Uint32(b[4:]), be.Uint32(b[8:])
	op := OpCode(w0 >> 24)
	if !op.Known() {
		return badField("BTH", "OpCode", BadValue, uint64(op))
	}
	if v := w0 >> 16 & 0xF; v != 0 {
		return badField("BTH", "TVer", BadVersion, uint64(v))
	}
	h.OpCode = op
	h.SE = w0&(1<<23) != 0
	h.M = w0&(1<<22) != 0
	h.PadCnt = uint8(w0 >> 20 & 3)
	h.TVer = 0
	h.PKey = uint16(w0)
	h.FECN = w1&(1<<31) != 0
	h.BECN = w1&(1<<30) != 0
	h.Rsvd6 = uint8(w1 >> 24 & 0x3F)
	h.DestQP = w1 & QPNMask
	h.AckReq = w2&(1<<31) != 0
	h.Rsvd7 = uint8(w2 >> 24 & 0x7F)
	h.PSN = w2 & PSNMask
	return nil
}

// wideField names the first field whose value does not fit its width.
func (h *BTH) wideField() error {
	for _, f := range [...]struct {
		name string
		v    uint64
		bits uint
	}{{"PadCnt", uint64(h.PadCnt), 2}, {"TVer", uint64(h.TVer), 4}, {"Rsvd6", uint64(h.Rsvd6), 6},
		{"DestQP", uint64(h.DestQP), 24}, {"Rsvd7", uint64(h.Rsvd7), 7}, {"PSN", uint64(h.PSN), 24}} {
		if err := tooWide("BTH", f.name, f.v, f.bits); err != nil {
			return err
		}
	}
	return nil
}
