package packet

import "fmt"

// OpCode is the 8-bit BTH opcode: the top 3 bits name the transport, the
// low 5 bits the operation (FACTS 1.2 [R2][R6]).
type OpCode uint8

// Transport bases, the top 3 bits of an opcode (FACTS 1.2 [R2][R6]).
const (
	TransportRC  OpCode = 0x00 // reliable connection
	TransportUC  OpCode = 0x20 // unreliable connection
	TransportRD  OpCode = 0x40 // reliable datagram (not decoded here)
	TransportUD  OpCode = 0x60 // unreliable datagram
	TransportCNP OpCode = 0x80 // congestion notification
)

// RC opcodes (FACTS 1.2 [R2]).
const (
	RCSendFirst         OpCode = 0x00
	RCSendMiddle        OpCode = 0x01
	RCSendLast          OpCode = 0x02
	RCSendLastImm       OpCode = 0x03
	RCSendOnly          OpCode = 0x04
	RCSendOnlyImm       OpCode = 0x05
	RCWriteFirst        OpCode = 0x06
	RCWriteMiddle       OpCode = 0x07
	RCWriteLast         OpCode = 0x08
	RCWriteLastImm      OpCode = 0x09
	RCWriteOnly         OpCode = 0x0A
	RCWriteOnlyImm      OpCode = 0x0B
	RCReadRequest       OpCode = 0x0C
	RCReadResponseFirst OpCode = 0x0D
	RCReadResponseMid   OpCode = 0x0E
	RCReadResponseLast  OpCode = 0x0F
	RCReadResponseOnly  OpCode = 0x10
	RCAcknowledge       OpCode = 0x11
	RCAtomicAcknowledge OpCode = 0x12
	RCCompareSwap       OpCode = 0x13
	RCFetchAdd          OpCode = 0x14
)

// UC opcodes: the SEND and RDMA WRITE operations under the UC base 0x20
// (FACTS 1.2 [R2]: transport base plus operation).
const (
	UCSendFirst    OpCode = 0x20
	UCSendMiddle   OpCode = 0x21
	UCSendLast     OpCode = 0x22
	UCSendLastImm  OpCode = 0x23
	UCSendOnly     OpCode = 0x24
	UCSendOnlyImm  OpCode = 0x25
	UCWriteFirst   OpCode = 0x26
	UCWriteMiddle  OpCode = 0x27
	UCWriteLast    OpCode = 0x28
	UCWriteLastImm OpCode = 0x29
	UCWriteOnly    OpCode = 0x2A
	UCWriteOnlyImm OpCode = 0x2B
)

// UD and CNP opcodes (FACTS 1.2 [R2][R5]).
const (
	UDSendOnly    OpCode = 0x64
	UDSendOnlyImm OpCode = 0x65
	// CNPOpCode is the RoCEv2 congestion notification packet (FACTS 1.2 [R2][R5]).
	CNPOpCode OpCode = 0x81
)

// Extension headers an opcode carries after the BTH, in wire order.
const (
	extRETH uint8 = 1 << iota
	extAETH
	extAtomicAck
	extAtomic
	extDETH
	extImm
	extCNP
	extKnown // set for every opcode this package decodes
)

// opExt maps each known opcode to its extension headers.
var opExt = func() (t [256]uint8) {
	for op := RCSendFirst; op <= RCFetchAdd; op++ {
		t[op] = extKnown
	}
	for op := UCSendFirst; op <= UCWriteOnlyImm; op++ {
		t[op] = extKnown
	}
	for _, op := range []OpCode{RCWriteFirst, RCWriteOnly, RCWriteOnlyImm, RCReadRequest, UCWriteFirst, UCWriteOnly, UCWriteOnlyImm} {
		t[op] |= extRETH
	}
	for _, op := range []OpCode{RCSendLastImm, RCSendOnlyImm, RCWriteLastImm, RCWriteOnlyImm,
		UCSendLastImm, UCSendOnlyImm, UCWriteLastImm, UCWriteOnlyImm, UDSendOnlyImm} {
		t[op] |= extImm
	}
	for _, op := range []OpCode{RCReadResponseFirst, RCReadResponseLast, RCReadResponseOnly, RCAcknowledge, RCAtomicAcknowledge} {
		t[op] |= extAETH
	}
	t[RCAtomicAcknowledge] |= extAtomicAck
	t[RCCompareSwap] |= extAtomic
	t[RCFetchAdd] |= extAtomic
	t[UDSendOnly] |= extKnown | extDETH
	t[UDSendOnlyImm] |= extKnown | extDETH
	t[CNPOpCode] = extKnown | extCNP
	return t
}()

// Known reports whether this package decodes the opcode: RC 0x00-0x14,
// UC 0x20-0x2B, UD 0x64-0x65 and CNP 0x81.
func (op OpCode) Known() bool { return opExt[op]&extKnown != 0 }

// Transport is the top 3 bits of the opcode.
func (op OpCode) Transport() OpCode { return op & 0xE0 }

// HasRETH reports whether an RDMA extended transport header follows the BTH.
func (op OpCode) HasRETH() bool { return opExt[op]&extRETH != 0 }

// HasAETH reports whether an ACK extended transport header follows.
func (op OpCode) HasAETH() bool { return opExt[op]&extAETH != 0 }

// HasAtomicAckETH reports whether an atomic acknowledge header follows the AETH.
func (op OpCode) HasAtomicAckETH() bool { return opExt[op]&extAtomicAck != 0 }

// HasAtomicETH reports whether an atomic extended transport header follows.
func (op OpCode) HasAtomicETH() bool { return opExt[op]&extAtomic != 0 }

// HasDETH reports whether a datagram extended transport header follows.
func (op OpCode) HasDETH() bool { return opExt[op]&extDETH != 0 }

// HasImmDt reports whether 4 bytes of immediate data follow the other
// extension headers.
func (op OpCode) HasImmDt() bool { return opExt[op]&extImm != 0 }

// IsCNP reports whether the opcode is the RoCEv2 CNP.
func (op OpCode) IsCNP() bool { return op == CNPOpCode }

// ExtLen is the number of extension header bytes between the BTH and the
// payload for this opcode.
func (op OpCode) ExtLen() int {
	e := opExt[op]
	n := 0
	if e&extDETH != 0 {
		n += DETHLen
	}
	if e&extRETH != 0 {
		n += RETHLen
	}
	if e&extAtomic != 0 {
		n += AtomicETHLen
	}
	if e&extAETH != 0 {
		n += AETHLen
	}
	if e&extAtomicAck != 0 {
		n += AtomicAckETHLen
	}
	if e&extImm != 0 {
		n += ImmDtLen
	}
	if e&extCNP != 0 {
		n += CNPReservedLen
	}
	return n
}

var opNames = [...]string{
	"SEND_FIRST", "SEND_MIDDLE", "SEND_LAST", "SEND_LAST_IMM", "SEND_ONLY", "SEND_ONLY_IMM",
	"RDMA_WRITE_FIRST", "RDMA_WRITE_MIDDLE", "RDMA_WRITE_LAST", "RDMA_WRITE_LAST_IMM",
	"RDMA_WRITE_ONLY", "RDMA_WRITE_ONLY_IMM", "RDMA_READ_REQUEST", "RDMA_READ_RESPONSE_FIRST",
	"RDMA_READ_RESPONSE_MIDDLE", "RDMA_READ_RESPONSE_LAST", "RDMA_READ_RESPONSE_ONLY",
	"ACKNOWLEDGE", "ATOMIC_ACKNOWLEDGE", "COMPARE_SWAP", "FETCH_ADD",
}

// String names the opcode, e.g. "RC_RDMA_WRITE_FIRST", or gives its value.
func (op OpCode) String() string {
	switch {
	case op == CNPOpCode:
		return "CNP"
	case op == UDSendOnly:
		return "UD_SEND_ONLY"
	case op == UDSendOnlyImm:
		return "UD_SEND_ONLY_IMM"
	case op.Known() && op.Transport() == TransportRC:
		return "RC_" + opNames[op]
	case op.Known() && op.Transport() == TransportUC:
		return "UC_" + opNames[op-TransportUC]
	}
	return fmt.Sprintf("OpCode(0x%02x)", uint8(op))
}
