package packet

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// hdrBenchFrame builds an RDMA WRITE FIRST frame (Eth/IPv4/UDP/BTH/RETH)
// with a 4096-byte payload.
func hdrBenchFrame(tb testing.TB) []byte {
	f := hdrRoCEv2(false, false, RCWriteFirst)
	buf := make([]byte, 4300)
	n, err := BuildRoCEv2Write(buf, &f, make([]byte, 4096))
	require.NoError(tb, err)
	return buf[:n]
}

// TestRoCEv2ZeroAllocs pins the hot-path promise: parsing and building a
// full RoCEv2 stack allocate nothing.
func TestRoCEv2ZeroAllocs(t *testing.T) {
	frame := hdrBenchFrame(t)
	var g RoCEv2
	require.Zero(t, testing.AllocsPerRun(100, func() {
		if err := g.Decode(frame); err != nil {
			t.Fatal(err)
		}
	}))
	f := hdrRoCEv2(false, false, RCWriteFirst)
	buf := make([]byte, 4300)
	payload := make([]byte, 4096)
	require.Zero(t, testing.AllocsPerRun(100, func() {
		if _, err := BuildRoCEv2Write(buf, &f, payload); err != nil {
			t.Fatal(err)
		}
	}))
	p := IBPacket{LRH: LRH{LNH: LNHBTH}, Transport: Transport{BTH: BTH{OpCode: RCWriteMiddle}}}
	n, err := p.Build(buf, payload)
	require.NoError(t, err)
	var q IBPacket
	require.Zero(t, testing.AllocsPerRun(100, func() {
		if err := q.Decode(buf[:n]); err != nil {
			t.Fatal(err)
		}
	}))
}

// BenchmarkRoCEv2Decode parses Eth/IPv4/UDP/BTH/RETH of a 4 KB write,
// including the IPv4 header checksum check.
func BenchmarkRoCEv2Decode(b *testing.B) {
	frame := hdrBenchFrame(b)
	var g RoCEv2
	b.ReportAllocs()
	for b.Loop() {
		if err := g.Decode(frame); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRoCEv2EncodeHeaders builds the same frame with an empty payload:
// header encode, length fields, IPv4 checksum and the zeroed ICRC and FCS.
func BenchmarkRoCEv2EncodeHeaders(b *testing.B) {
	f := hdrRoCEv2(false, false, RCWriteFirst)
	buf := make([]byte, 256)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := BuildRoCEv2Write(buf, &f, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRoCEv2Build4K builds the frame with a 4096-byte payload copy.
func BenchmarkRoCEv2Build4K(b *testing.B) {
	f := hdrRoCEv2(false, false, RCWriteFirst)
	buf := make([]byte, 4300)
	payload := make([]byte, 4096)
	b.ReportAllocs()
	b.SetBytes(4096)
	for b.Loop() {
		if _, err := BuildRoCEv2Write(buf, &f, payload); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBTHDecode decodes one BTH.
func BenchmarkBTHDecode(b *testing.B) {
	buf := make([]byte, BTHLen)
	h := BTH{OpCode: RCWriteMiddle, PKey: DefaultPKey, DestQP: 0x123, PSN: 0x456}
	_, err := h.Encode(buf)
	require.NoError(b, err)
	var g BTH
	b.ReportAllocs()
	for b.Loop() {
		if err := g.Decode(buf); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBTHEncode encodes one BTH.
func BenchmarkBTHEncode(b *testing.B) {
	buf := make([]byte, BTHLen)
	h := BTH{OpCode: RCWriteMiddle, PKey: DefaultPKey, DestQP: 0x123, PSN: 0x456}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := h.Encode(buf); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkIBPacketDecode parses a lean native frame LRH/BTH of a 4 KB write.
func BenchmarkIBPacketDecode(b *testing.B) {
	p := IBPacket{LRH: LRH{LNH: LNHBTH}, Transport: Transport{BTH: BTH{OpCode: RCWriteMiddle}}}
	buf := make([]byte, 4200)
	n, err := p.Build(buf, make([]byte, 4096))
	require.NoError(b, err)
	var g IBPacket
	b.ReportAllocs()
	for b.Loop() {
		if err := g.Decode(buf[:n]); err != nil {
			b.Fatal(err)
		}
	}
}
