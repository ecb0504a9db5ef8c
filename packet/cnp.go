package packet

// CNP sizes (FACTS 1.2 [R2]).
const (
	// CNPReservedLen is the reserved block that follows the BTH of a RoCEv2 CNP.
	CNPReservedLen = 16
	// CNPLen is the BTH plus the reserved block, without the ICRC.
	CNPLen = BTHLen + CNPReservedLen
)

// CNP is the RoCEv2 congestion notification packet body: a BTH with opcode
// 0x81 and BECN set, then 16 reserved bytes, then the ICRC (FACTS 1.2 [R2]).
type CNP struct {
	BTH      BTH
	Reserved [CNPReservedLen]byte
}

// NewCNP returns the CNP a notification point sends to destQP: opcode 0x81,
// BECN 1, default P_Key, zero reserved bytes (FACTS 1.2 [R2]).
func NewCNP(destQP uint32) CNP {
	return CNP{BTH: BTH{OpCode: CNPOpCode, BECN: true, PKey: DefaultPKey, DestQP: destQP & QPNMask}}
}

// Encode writes the BTH and reserved block into b. The opcode must be 0x81.
func (h *CNP) Encode(b []byte) (int, error) {
	if h.BTH.OpCode != CNPOpCode {
		return 0, badField("CNP", "OpCode", BadValue, uint64(h.BTH.OpCode))
	}
	if len(b) < CNPLen {
		return 0, short("CNP", CNPLen, len(b))
	}
	if _, err := h.BTH.Encode(b); err != nil {
		return 0, err
	}
	copy(b[BTHLen:CNPLen], h.Reserved[:])
	return CNPLen, nil
}

// Decode reads a CNP from the start of b; any other opcode is BadValue.
func (h *CNP) Decode(b []byte) error {
	if err := h.BTH.Decode(b); err != nil {
		return err
	}
	if h.BTH.OpCode != CNPOpCode {
		return badField("CNP", "OpCode", BadValue, uint64(h.BTH.OpCode))
	}
	if len(b) < CNPLen {
		return truncated("CNP", "Reserved", CNPLen, len(b))
	}
	copy(h.Reserved[:], b[BTHLen:CNPLen])
	return nil
}
