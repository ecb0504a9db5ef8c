package packet

import (
	"math/rand/v2"
	"testing"
)

// hdrCodec is what every fixed header in this package implements.
type hdrCodec interface {
	Encode(b []byte) (int, error)
	Decode(b []byte) error
}

// hdrCase describes one header type for the table-driven property, random
// byte and fuzz tests: a generator of valid random values, a fresh value to
// decode into, and the bytes the decoder needs beyond the encoding (length
// fields may claim more than the header).
type hdrCase struct {
	name  string
	gen   func(r *rand.Rand) hdrCodec
	fresh func() hdrCodec
	need  func(h hdrCodec, n int) int
}

func hdrU8(r *rand.Rand, bits uint) uint8   { return uint8(r.Uint32() & (1<<bits - 1)) }
func hdrU16(r *rand.Rand, bits uint) uint16 { return uint16(r.Uint32() & (1<<bits - 1)) }
func hdrU32(r *rand.Rand, bits uint) uint32 { return uint32(r.Uint64() & (1<<bits - 1)) }
func hdrBool(r *rand.Rand) bool             { return r.IntN(2) == 1 }
func hdrFill(r *rand.Rand, b []byte) {
	for i := range b {
		b[i] = byte(r.Uint32())
	}
}
func hdrMAC(r *rand.Rand) (m [6]byte)        { hdrFill(r, m[:]); return }
func hdrAddr16(r *rand.Rand) (a [16]byte)    { hdrFill(r, a[:]); return }
func hdrOpCode(r *rand.Rand) OpCode          { return hdrKnownOps[r.IntN(len(hdrKnownOps))] }
func hdrPick[T any](r *rand.Rand, xs ...T) T { return xs[r.IntN(len(xs))] }

var hdrKnownOps = func() (ops []OpCode) {
	for op := 0; op < 256; op++ {
		if OpCode(op).Known() {
			ops = append(ops, OpCode(op))
		}
	}
	return ops
}()

func hdrGenBTH(r *rand.Rand) BTH {
	return BTH{OpCode: hdrOpCode(r), SE: hdrBool(r), M: hdrBool(r), PadCnt: hdrU8(r, 2), PKey: uint16(r.Uint32()),
		FECN: hdrBool(r), BECN: hdrBool(r), Rsvd6: hdrU8(r, 6), DestQP: hdrU32(r, 24), AckReq: hdrBool(r),
		Rsvd7: hdrU8(r, 7), PSN: hdrU32(r, 24)}
}

func hdrGenIPv4(r *rand.Rand) IPv4 {
	h := IPv4{IHL: uint8(5 + r.IntN(11)), TOS: uint8(r.Uint32()), ID: uint16(r.Uint32()), Flags: hdrU8(r, 3),
		FragOffset: hdrU16(r, 13), TTL: uint8(r.Uint32()), Protocol: uint8(r.Uint32())}
	hdrFill(r, h.Src[:])
	hdrFill(r, h.Dst[:])
	hdrFill(r, h.Options[:h.Len()-IPv4MinLen])
	h.TotalLength = uint16(h.Len() + r.IntN(0x10000-h.Len()))
	if r.IntN(2) == 0 { // keep many cases small so seeds stay short
		h.TotalLength = uint16(h.Len() + r.IntN(64))
	}
	if err := h.ComputeChecksum(); err != nil {
		panic(err)
	}
	return h
}

func hdrGenAETH(r *rand.Rand) AETH {
	s := hdrPick(r, AckSyndrome(hdrU8(r, 5)), RNRNakSyndrome(hdrU8(r, 5)), NAKPSNSeqError+uint8(r.IntN(5)))
	return AETH{Syndrome: s, MSN: hdrU32(r, 24)}
}

func hdrGenPDSAck(r *rand.Rand, t PDSType) PDSAck {
	return PDSAck{Type: t, NextHdr: hdrU8(r, 4), Rsvd1: hdrBool(r), ECNMarked: hdrBool(r), Retrans: hdrBool(r),
		Probe: hdrBool(r), Request: hdrU8(r, 2), Rsvd2: hdrBool(r), AckPSNOffset: uint16(r.Uint32()),
		CAckPSN: r.Uint32(), SPDCID: uint16(r.Uint32()), DPDCID: uint16(r.Uint32())}
}

func hdrGenSESCommon(r *rand.Rand) SESCommon {
	return SESCommon{Rsvd1: hdrU8(r, 2), Opcode: hdrU8(r, 6), Version: hdrU8(r, 2), DeliveryComplete: hdrBool(r),
		InitiatorError: hdrBool(r), RelativeAddressing: hdrBool(r), HdrDataPresent: hdrBool(r), EOM: hdrBool(r),
		SOM: hdrBool(r), MessageID: uint16(r.Uint32()), RIGeneration: uint8(r.Uint32()), JobID: hdrU32(r, 24),
		Rsvd2: hdrU8(r, 4), PIDOnFEP: hdrU16(r, 12), Rsvd3: hdrU8(r, 4), ResourceIndex: hdrU16(r, 12)}
}

// hdrGenTransport draws a known opcode and fills only the extension
// headers it carries, so that a decoded copy compares equal.
func hdrGenTransport(r *rand.Rand) Transport { return hdrGenTransportOp(r, hdrOpCode(r)) }

// hdrGenTransportOp is hdrGenTransport for a chosen opcode.
func hdrGenTransportOp(r *rand.Rand, op OpCode) Transport {
	t := Transport{BTH: hdrGenBTH(r)}
	t.BTH.OpCode = op
	if op.HasDETH() {
		t.DETH = DETH{QKey: r.Uint32(), Rsvd8: uint8(r.Uint32()), SrcQP: hdrU32(r, 24)}
	}
	if op.HasRETH() {
		t.RETH = RETH{VA: r.Uint64(), RKey: r.Uint32(), DMALen: r.Uint32()}
	}
	if op.HasAtomicETH() {
		t.AtomicETH = AtomicETH{VA: r.Uint64(), RKey: r.Uint32(), SwapAdd: r.Uint64(), Compare: r.Uint64()}
	}
	if op.HasAETH() {
		t.AETH = hdrGenAETH(r)
	}
	if op.HasAtomicAckETH() {
		t.AtomicAckETH = AtomicAckETH{OrigData: r.Uint64()}
	}
	if op.HasImmDt() {
		t.ImmDt = ImmDt{Imm: r.Uint32()}
	}
	if op.IsCNP() {
		hdrFill(r, t.CNPReserved[:])
	}
	return t
}

var hdrCases = []hdrCase{
	{name: "Ethernet", fresh: func() hdrCodec { return new(Ethernet) }, gen: func(r *rand.Rand) hdrCodec {
		h := &Ethernet{Dst: hdrMAC(r), Src: hdrMAC(r), EtherType: hdrPick(r, EtherTypeIPv4, EtherTypeIPv6, uint16(r.Uint32()))}
		if h.EtherType == EtherTypeVLAN {
			h.EtherType = EtherTypeIPv4
		}
		if hdrBool(r) {
			h.Tagged = true
			h.VLAN = VLANTag{PCP: hdrU8(r, 3), DEI: hdrBool(r), VID: hdrU16(r, 12)}
			h.EtherType = uint16(r.Uint32())
		}
		return h
	}},
	{name: "IPv4", fresh: func() hdrCodec { return new(IPv4) },
		gen:  func(r *rand.Rand) hdrCodec { h := hdrGenIPv4(r); return &h },
		need: func(h hdrCodec, n int) int { return int(h.(*IPv4).TotalLength) }},
	{name: "IPv6", fresh: func() hdrCodec { return new(IPv6) }, gen: func(r *rand.Rand) hdrCodec {
		return &IPv6{TrafficClass: uint8(r.Uint32()), FlowLabel: hdrU32(r, 20), PayloadLength: hdrU16(r, hdrPick[uint](r, 6, 16)),
			NextHeader: uint8(r.Uint32()), HopLimit: uint8(r.Uint32()), Src: hdrAddr16(r), Dst: hdrAddr16(r)}
	}, need: func(h hdrCodec, n int) int { return n + int(h.(*IPv6).PayloadLength) }},
	{name: "UDP", fresh: func() hdrCodec { return new(UDP) }, gen: func(r *rand.Rand) hdrCodec {
		return &UDP{SrcPort: uint16(r.Uint32()), DstPort: uint16(r.Uint32()),
			Length: max(UDPLen, hdrU16(r, hdrPick[uint](r, 6, 16))), Checksum: uint16(r.Uint32())}
	}, need: func(h hdrCodec, n int) int { return int(h.(*UDP).Length) }},
	{name: "LRH", fresh: func() hdrCodec { return new(LRH) }, gen: func(r *rand.Rand) hdrCodec {
		return &LRH{VL: hdrU8(r, 4), SL: hdrU8(r, 4), Rsvd2: hdrU8(r, 2), LNH: hdrU8(r, 2), DLID: uint16(r.Uint32()),
			Rsvd5: hdrU8(r, 5), PktLen: max(2, hdrU16(r, hdrPick[uint](r, 4, 11))), SLID: uint16(r.Uint32())}
	}, need: func(h hdrCodec, n int) int { return int(h.(*LRH).PktLen) * 4 }},
	{name: "GRH", fresh: func() hdrCodec { return new(GRH) }, gen: func(r *rand.Rand) hdrCodec {
		return &GRH{TClass: uint8(r.Uint32()), FlowLabel: hdrU32(r, 20), PayLen: hdrU16(r, hdrPick[uint](r, 6, 16)),
			NxtHdr: uint8(r.Uint32()), HopLmt: uint8(r.Uint32()), SGID: hdrAddr16(r), DGID: hdrAddr16(r)}
	}, need: func(h hdrCodec, n int) int { return n + int(h.(*GRH).PayLen) }},
	{name: "BTH", fresh: func() hdrCodec { return new(BTH) },
		gen: func(r *rand.Rand) hdrCodec { h := hdrGenBTH(r); return &h }},
	{name: "RETH", fresh: func() hdrCodec { return new(RETH) }, gen: func(r *rand.Rand) hdrCodec {
		return &RETH{VA: r.Uint64(), RKey: r.Uint32(), DMALen: r.Uint32()}
	}},
	{name: "AETH", fresh: func() hdrCodec { return new(AETH) },
		gen: func(r *rand.Rand) hdrCodec { h := hdrGenAETH(r); return &h }},
	{name: "DETH", fresh: func() hdrCodec { return new(DETH) }, gen: func(r *rand.Rand) hdrCodec {
		return &DETH{QKey: r.Uint32(), Rsvd8: uint8(r.Uint32()), SrcQP: hdrU32(r, 24)}
	}},
	{name: "ImmDt", fresh: func() hdrCodec { return new(ImmDt) },
		gen: func(r *rand.Rand) hdrCodec { return &ImmDt{Imm: r.Uint32()} }},
	{name: "AtomicETH", fresh: func() hdrCodec { return new(AtomicETH) }, gen: func(r *rand.Rand) hdrCodec {
		return &AtomicETH{VA: r.Uint64(), RKey: r.Uint32(), SwapAdd: r.Uint64(), Compare: r.Uint64()}
	}},
	{name: "AtomicAckETH", fresh: func() hdrCodec { return new(AtomicAckETH) },
		gen: func(r *rand.Rand) hdrCodec { return &AtomicAckETH{OrigData: r.Uint64()} }},
	{name: "CNP", fresh: func() hdrCodec { return new(CNP) }, gen: func(r *rand.Rand) hdrCodec {
		h := CNP{BTH: hdrGenBTH(r)}
		h.BTH.OpCode = CNPOpCode
		hdrFill(r, h.Reserved[:])
		return &h
	}},
	{name: "INT", fresh: func() hdrCodec { return new(INT) }, gen: func(r *rand.Rand) hdrCodec {
		h := INT{NHop: uint16(r.IntN(INTMaxHops + 1))}
		for i := range h.Hops {
			h.Hops[i] = INTHop{LineRate: hdrU8(r, 3), Time: hdrU32(r, 24), Bytes: hdrU32(r, 20), QLen: hdrU32(r, 17)}
		}
		return &h
	}},
	{name: "PDSRequest", fresh: func() hdrCodec { return new(PDSRequest) }, gen: func(r *rand.Rand) hdrCodec {
		h := &PDSRequest{Type: hdrPick(r, PDSTypeRUDReq, PDSTypeRODReq, PDSTypeRUDCCReq, PDSTypeRODCCReq),
			NextHdr: hdrU8(r, 4), Rsvd1: hdrU8(r, 2), Retrans: hdrBool(r), AckReq: hdrBool(r), SYN: hdrBool(r),
			Rsvd2: hdrU8(r, 2), ClearPSNOffset: uint16(r.Uint32()), PSN: r.Uint32(), SPDCID: uint16(r.Uint32()),
			DPDCID: uint16(r.Uint32())}
		if h.HasCC() {
			h.CCCID, h.CreditTarget = uint8(r.Uint32()), hdrU32(r, 24)
		}
		return h
	}},
	{name: "PDSAck", fresh: func() hdrCodec { return new(PDSAck) },
		gen: func(r *rand.Rand) hdrCodec { h := hdrGenPDSAck(r, PDSTypeAck); return &h }},
	{name: "PDSAckCC", fresh: func() hdrCodec { return new(PDSAckCC) }, gen: func(r *rand.Rand) hdrCodec {
		return &PDSAckCC{PDSAck: hdrGenPDSAck(r, PDSTypeAckCC), CCType: hdrU8(r, 1), CCFlags: hdrU8(r, 4),
			MPR: uint8(r.Uint32()), SACKPSNOffset: uint16(r.Uint32()), SACKBitmap: r.Uint64(), CCState: r.Uint64()}
	}},
	{name: "PDSNack", fresh: func() hdrCodec { return new(PDSNack) }, gen: func(r *rand.Rand) hdrCodec {
		return &PDSNack{NextHdr: hdrU8(r, 4), Rsvd1: hdrBool(r), ECNMarked: hdrBool(r), Retrans: hdrBool(r),
			NackType: hdrU8(r, 1), Rsvd2: hdrU8(r, 3), Code: NackCode(r.Uint32()), VendorCode: uint8(r.Uint32()),
			NackPSN: r.Uint32(), SPDCID: uint16(r.Uint32()), DPDCID: uint16(r.Uint32()), Payload: r.Uint32()}
	}},
	{name: "SESStandard", fresh: func() hdrCodec { return new(SESStandard) }, gen: func(r *rand.Rand) hdrCodec {
		return &SESStandard{SESCommon: hdrGenSESCommon(r), BufferOffset: r.Uint64(), Initiator: r.Uint32(),
			MemoryKey: r.Uint64(), HeaderData: r.Uint64(), RequestLength: r.Uint32()}
	}},
	{name: "SESSmall", fresh: func() hdrCodec { return new(SESSmall) }, gen: func(r *rand.Rand) hdrCodec {
		return &SESSmall{SESCommon: hdrGenSESCommon(r), BufferOffset: r.Uint64()}
	}},
	{name: "PFC", fresh: func() hdrCodec { return new(PFC) }, gen: func(r *rand.Rand) hdrCodec {
		h := &PFC{Src: hdrMAC(r), Reserved: uint8(r.Uint32()), Classes: uint8(r.Uint32())}
		for c := range h.Quanta {
			h.Quanta[c] = uint16(r.Uint32())
		}
		return h
	}},
	{name: "Transport", fresh: func() hdrCodec { return new(Transport) },
		gen: func(r *rand.Rand) hdrCodec { h := hdrGenTransport(r); return &h }},
}

// hdrCaseNamed returns the case for one header type.
func hdrCaseNamed(tb testing.TB, name string) hdrCase {
	for _, c := range hdrCases {
		if c.name == name {
			return c
		}
	}
	tb.Fatalf("no header case %q", name)
	return hdrCase{}
}

// hdrEncodeFor encodes h into buf and returns the encoding and the slice of
// buf the decoder must be given (zero bytes after the header stand in for
// the rest of the packet).
func hdrEncodeFor(tb testing.TB, c hdrCase, h hdrCodec, buf []byte) (enc, in []byte) {
	n, err := h.Encode(buf)
	if err != nil {
		tb.Fatalf("%s: encode %+v: %v", c.name, h, err)
	}
	need := n
	if c.need != nil {
		need = max(n, c.need(h, n))
	}
	clear(buf[n:need])
	return buf[:n], buf[:need]
}
