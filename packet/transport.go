package packet

// Transport is a BTH and the extension headers its opcode calls for, in
// wire order: DETH, RETH, AtomicETH, AETH, AtomicAckETH, ImmDt, or the CNP
// reserved block (FACTS 1.2 [R4][R5][R2]). Only the headers the opcode
// names are encoded or decoded; the others keep whatever they hold.
type Transport struct {
	BTH          BTH
	DETH         DETH
	RETH         RETH
	AtomicETH    AtomicETH
	AETH         AETH
	AtomicAckETH AtomicAckETH
	ImmDt        ImmDt
	CNPReserved  [CNPReservedLen]byte
}

// Len is the BTH plus the extension headers of its opcode.
func (t *Transport) Len() int { return BTHLen + t.BTH.OpCode.ExtLen() }

// Encode writes the BTH and the extension headers of its opcode into b.
// Opcodes outside the known set are BadValue on BTH.OpCode.
func (t *Transport) Encode(b []byte) (int, error) {
	op := t.BTH.OpCode
	if !op.Known() {
		return 0, badField("BTH", "OpCode", BadValue, uint64(op))
	}
	n := t.Len()
	if len(b) < n {
		return 0, short("Transport", n, len(b))
	}
	off, err := t.BTH.Encode(b)
	if err != nil {
		return 0, err
	}
	step := func(k int, err error) error {
		off += k
		return err
	}
	if op.HasDETH() {
		if err := step(t.DETH.Encode(b[off:])); err != nil {
			return 0, err
		}
	}
	if op.HasRETH() {
		if err := step(t.RETH.Encode(b[off:])); err != nil {
			return 0, err
		}
	}
	if op.HasAtomicETH() {
		if err := step(t.AtomicETH.Encode(b[off:])); err != nil {
			return 0, err
		}
	}
	if op.HasAETH() {
		if err := step(t.AETH.Encode(b[off:])); err != nil {
			return 0, err
		}
	}
	if op.HasAtomicAckETH() {
		if err := step(t.AtomicAckETH.Encode(b[off:])); err != nil {
			return 0, err
		}
	}
	if op.HasImmDt() {
		if err := step(t.ImmDt.Encode(b[off:])); err != nil {
			return 0, err
		}
	}
	if op.IsCNP() {
		off += copy(b[off:], t.CNPReserved[:])
	}
	return off, nil
}

// Decode reads the BTH and the extension headers its opcode calls for from
// the start of b; Len gives the bytes consumed.
func (t *Transport) Decode(b []byte) error {
	if err := t.BTH.Decode(b); err != nil {
		return err
	}
	op := t.BTH.OpCode
	off := BTHLen
	if op.HasDETH() {
		if err := t.DETH.Decode(b[off:]); err != nil {
			return err
		}
		off += DETHLen
	}
	if op.HasRETH() {
		if err := t.RETH.Decode(b[off:]); err != nil {
			return err
		}
		off += RETHLen
	}
	if op.HasAtomicETH() {
		if err := t.AtomicETH.Decode(b[off:]); err != nil {
			return err
		}
		off += AtomicETHLen
	}
	if op.HasAETH() {
		if err := t.AETH.Decode(b[off:]); err != nil {
			return err
		}
		off += AETHLen
	}
	if op.HasAtomicAckETH() {
		if err := t.AtomicAckETH.Decode(b[off:]); err != nil {
			return err
		}
		off += AtomicAckETHLen
	}
	if op.HasImmDt() {
		if err := t.ImmDt.Decode(b[off:]); err != nil {
			return err
		}
		off += ImmDtLen
	}
	if op.IsCNP() {
		if len(b)-off < CNPReservedLen {
			return truncated("CNP", "Reserved", off+CNPReservedLen, len(b))
		}
		copy(t.CNPReserved[:], b[off:])
	}
	return nil
}
