package packet

import (
	"strings"
	"testing"
)

// TestHeaderDecodeMalformed checks that each decoder names the header,
// field and problem for truncated, bad-version, bad-length and bad-value
// input.
func TestHeaderDecodeMalformed(t *testing.T) {
	ipv4 := func(mut func(b []byte), extra int) []byte {
		b := make([]byte, IPv4MinLen+extra)
		h := IPv4{IHL: 5, TotalLength: uint16(IPv4MinLen + extra), TTL: 64, Protocol: IPProtoUDP}
		if err := h.ComputeChecksum(); err != nil {
			t.Fatal(err)
		}
		if _, err := h.Encode(b); err != nil {
			t.Fatal(err)
		}
		if mut != nil {
			mut(b)
		}
		return b
	}
	zero := func(n int) []byte { return make([]byte, n) }
	with := func(b []byte, pairs ...int) []byte {
		for i := 0; i < len(pairs); i += 2 {
			b[pairs[i]] = byte(pairs[i+1])
		}
		return b
	}
	// a PFC frame's destination with EtherType et and opcode op
	pfcWith := func(et, op uint16) []byte {
		b := zero(PFCLen)
		copy(b, PFCDestination[:])
		be.PutUint16(b[12:], et)
		be.PutUint16(b[14:], op)
		return b
	}
	tests := []struct {
		name        string
		dec         hdrCodec
		in          []byte
		header, fld string
		problem     Problem
	}{
		{"Ethernet empty", new(Ethernet), nil, "Ethernet", "Dst", Truncated},
		{"Ethernet 10 bytes", new(Ethernet), zero(10), "Ethernet", "Src", Truncated},
		{"Ethernet tag cut", new(Ethernet), with(zero(16), 12, 0x81, 13, 0x00), "Ethernet", "EtherType", Truncated},
		{"IPv4 19 bytes", new(IPv4), zero(19), "IPv4", "Dst", Truncated},
		{"IPv4 version 6", new(IPv4), ipv4(func(b []byte) { b[0] = 0x65 }, 0), "IPv4", "Version", BadVersion},
		{"IPv4 IHL 4", new(IPv4), ipv4(func(b []byte) { b[0] = 0x44 }, 0), "IPv4", "IHL", BadLength},
		{"IPv4 options cut", new(IPv4), ipv4(func(b []byte) { b[0] = 0x46 }, 0), "IPv4", "Options", Truncated},
		{"IPv4 total past buffer", new(IPv4), ipv4(func(b []byte) { b[3] = 21 }, 0), "IPv4", "TotalLength", BadLength},
		{"IPv4 total below header", new(IPv4), ipv4(func(b []byte) { b[3] = 19 }, 0), "IPv4", "TotalLength", BadLength},
		{"IPv4 checksum", new(IPv4), ipv4(func(b []byte) { b[8] ^= 1 }, 4), "IPv4", "Checksum", BadChecksum},
		{"IPv6 short", new(IPv6), zero(39), "IPv6", "Dst", Truncated},
		{"IPv6 version 4", new(IPv6), with(zero(40), 0, 0x40), "IPv6", "Version", BadVersion},
		{"IPv6 payload past buffer", new(IPv6), with(zero(41), 0, 0x60, 5, 2), "IPv6", "PayloadLength", BadLength},
		{"UDP short", new(UDP), zero(5), "UDP", "Length", Truncated},
		{"UDP length 7", new(UDP), with(zero(8), 5, 7), "UDP", "Length", BadLength},
		{"UDP length past buffer", new(UDP), with(zero(8), 5, 9), "UDP", "Length", BadLength},
		{"LRH short", new(LRH), zero(7), "LRH", "SLID", Truncated},
		{"LRH LVer 1", new(LRH), with(zero(8), 0, 0x01, 5, 2), "LRH", "LVer", BadVersion},
		{"LRH PktLen 1", new(LRH), with(zero(8), 5, 1), "LRH", "PktLen", BadLength},
		{"LRH PktLen past buffer", new(LRH), with(zero(8), 5, 3), "LRH", "PktLen", BadLength},
		{"GRH IPVer 4", new(GRH), with(zero(40), 0, 0x40), "GRH", "IPVer", BadVersion},
		{"GRH PayLen past buffer", new(GRH), with(zero(40), 0, 0x60, 5, 1), "GRH", "PayLen", BadLength},
		{"BTH short", new(BTH), zero(11), "BTH", "PSN", Truncated},
		{"BTH opcode 0x15", new(BTH), with(zero(12), 0, 0x15), "BTH", "OpCode", BadValue},
		{"BTH RD opcode", new(BTH), with(zero(12), 0, 0x40), "BTH", "OpCode", BadValue},
		{"BTH opcode 0x80", new(BTH), with(zero(12), 0, 0x80), "BTH", "OpCode", BadValue},
		{"BTH TVer 1", new(BTH), with(zero(12), 1, 0x01), "BTH", "TVer", BadVersion},
		{"RETH short", new(RETH), zero(10), "RETH", "RKey", Truncated},
		{"AETH short", new(AETH), zero(3), "AETH", "MSN", Truncated},
		{"AETH reserved kind", new(AETH), with(zero(4), 0, 0x40), "AETH", "Syndrome", BadValue},
		{"AETH kind 1xx", new(AETH), with(zero(4), 0, 0x80), "AETH", "Syndrome", BadValue},
		{"AETH NAK code 5", new(AETH), with(zero(4), 0, 0x65), "AETH", "Syndrome", BadValue},
		{"DETH short", new(DETH), zero(6), "DETH", "SrcQP", Truncated},
		{"ImmDt short", new(ImmDt), zero(3), "ImmDt", "Imm", Truncated},
		{"AtomicETH short", new(AtomicETH), zero(27), "AtomicETH", "Compare", Truncated},
		{"AtomicAckETH short", new(AtomicAckETH), zero(7), "AtomicAckETH", "OrigData", Truncated},
		{"CNP opcode", new(CNP), with(zero(28), 0, 0x0A), "CNP", "OpCode", BadValue},
		{"CNP short", new(CNP), with(zero(20), 0, 0x81), "CNP", "Reserved", Truncated},
		{"INT short", new(INT), zero(41), "INT", "NHop", Truncated},
		{"PFC short", new(PFC), zero(16), "PFC", "Reserved", Truncated},
		{"PFC destination", new(PFC), zero(34), "PFC", "Dst", BadValue},
		{"PFC pause frame", new(PFC), pfcWith(0x8808, 0x0001), "PFC", "Opcode", BadValue},
		{"PFC tagged", new(PFC), pfcWith(0x8100, 0x0101), "PFC", "EtherType", BadValue},
		{"INT NHop 6", new(INT), with(zero(42), 41, 6), "INT", "NHop", BadValue},
		{"PDS request short", new(PDSRequest), zero(9), "PDSRequest", "SPDCID", Truncated},
		{"PDS request type ACK", new(PDSRequest), with(zero(12), 0, 7<<3), "PDSRequest", "Type", BadValue},
		{"PDS request CC cut", new(PDSRequest), with(zero(12), 0, 13<<3), "PDSRequest", "CCCID", Truncated},
		{"PDS ACK type NACK", new(PDSAck), with(zero(12), 0, 10<<3), "PDSAck", "Type", BadValue},
		{"PDS ACK_CC short", new(PDSAckCC), zero(30), "PDSAckCC", "CCState", Truncated},
		{"PDS ACK_CC cc_type 2", new(PDSAckCC), with(zero(32), 0, 8<<3, 12, 0x20), "PDSAckCC", "CCType", BadValue},
		{"PDS NACK type ACK", new(PDSNack), with(zero(16), 0, 7<<3), "PDSNack", "Type", BadValue},
		{"PDS NACK short", new(PDSNack), zero(14), "PDSNack", "Payload", Truncated},
		{"SES standard short", new(SESStandard), zero(30), "SESStandard", "MemoryKey", Truncated},
		{"SES small short", new(SESSmall), zero(19), "SESSmall", "BufferOffset", Truncated},
		{"Transport RETH cut", new(Transport), with(zero(20), 0, int(RCWriteFirst)), "RETH", "RKey", Truncated},
		{"Transport AETH bad", new(Transport), with(zero(16), 0, int(RCAcknowledge), 12, 0x40), "AETH", "Syndrome", BadValue},
		{"Transport CNP cut", new(Transport), with(zero(20), 0, 0x81), "CNP", "Reserved", Truncated},
	}
	for _, tc := range tests {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			hdrRequireFieldError(t, tc.dec.Decode(tc.in), tc.header, tc.fld, tc.problem)
		})
	}
}
