package packet

// AETHLen is the ACK extended transport header (FACTS 1.2 [R2][R4]).
const AETHLen = 4

// AETHKind is the top 3 bits of the AETH syndrome (FACTS 1.2 [R4][R5]).
type AETHKind uint8

// Syndrome kinds: 000 ACK, 001 RNR NAK, 011 NAK; 010 and 1xx are reserved.
const (
	AETHAck    AETHKind = 0
	AETHRNRNak AETHKind = 1
	AETHNak    AETHKind = 3
)

// Full NAK syndromes (FACTS 1.2 [R4][R5]).
const (
	NAKPSNSeqError    uint8 = 0x60 // PSN sequence error
	NAKInvalidRequest uint8 = 0x61 // invalid request
	NAKRemoteAccess   uint8 = 0x62 // remote access error
	NAKRemoteOp       uint8 = 0x63 // remote operational error
	NAKInvalidRD      uint8 = 0x64 // invalid RD request
	// CreditInvalid is the ACK credit count meaning unlimited or invalid
	// credit (IB_AETH_CREDIT_MASK, FACTS 1.2 [R5]).
	CreditInvalid uint8 = 0x1F
)

// AETH is the ACK extended transport header: Syndrome 8b, MSN 24b
// (FACTS 1.2 [R2][R4]). Decode rejects reserved syndrome kinds and NAK
// codes above 4.
type AETH struct {
	Syndrome uint8
	MSN      uint32 // message sequence number, 24 bits
}

// AckSyndrome is the syndrome of an ACK carrying a 5-bit credit count.
func AckSyndrome(credit uint8) uint8 { return credit & 0x1F }

// RNRNakSyndrome is the syndrome of an RNR NAK carrying a 5-bit RNR timer code.
func RNRNakSyndrome(timer uint8) uint8 { return 0x20 | timer&0x1F }

// Kind is the syndrome type, bits 7:5.
func (h *AETH) Kind() AETHKind { return AETHKind(h.Syndrome >> 5) }

// IsAck reports a positive acknowledgement.
func (h *AETH) IsAck() bool { return h.Kind() == AETHAck }

// IsRNRNak reports a receiver-not-ready NAK.
func (h *AETH) IsRNRNak() bool { return h.Kind() == AETHRNRNak }

// IsNak reports a NAK.
func (h *AETH) IsNak() bool { return h.Kind() == AETHNak }

// Credit is the credit count of an ACK (low 5 bits; 0x1F = invalid).
func (h *AETH) Credit() uint8 { return h.Syndrome & 0x1F }

// RNRTimer is the RNR timer code of an RNR NAK (low 5 bits).
func (h *AETH) RNRTimer() uint8 { return h.Syndrome & 0x1F }

// NAKCode is the NAK code of a NAK (low 5 bits, 0..4).
func (h *AETH) NAKCode() uint8 { return h.Syndrome & 0x1F }

// Encode writes the header into b.
func (h *AETH) Encode(b []byte) (int, error) {
	if len(b) < AETHLen {
		return 0, short("AETH", AETHLen, len(b))
	}
	if err := tooWide("AETH", "MSN", uint64(h.MSN), 24); err != nil {
		return 0, err
	}
	b[0] = h.Syndrome
	put24(b[1:], h.MSN)
	return AETHLen, nil
}

// Decode reads the header from the start of b.
func (h *AETH) Decode(b []byte) error {
	if len(b) < AETHLen {
		f := "Syndrome"
		if len(b) >= 1 {
			f = "MSN"
		}
		return truncated("AETH", f, AETHLen, len(b))
	}
	s := b[0]
	switch AETHKind(s >> 5) {
	case AETHAck, AETHRNRNak:
	case AETHNak:
		if s&0x1F > NAKInvalidRD&0x1F {
			return badField("AETH", "Syndrome", BadValue, uint64(s))
		}
	default:
		return badField("AETH", "Syndrome", BadValue, uint64(s))
	}
	h.Syndrome = s
	h.MSN = get24(b[1:])
	return nil
}
