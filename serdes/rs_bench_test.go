package serdes

import (
	"testing"
)

// reportGbps adds the line throughput in Gb/s of codewords processed.
func reportGbps(b *testing.B, bitsPerOp int) {
	if s := b.Elapsed().Seconds(); s > 0 {
		b.ReportMetric(float64(bitsPerOp)*float64(b.N)/s/1e9, "Gb/s")
	}
}

func BenchmarkRS544Encode(b *testing.B) {
	c := RS544()
	rng := NewRNG(1)
	msg := make([]uint16, RS544K)
	randomMessage(rng, msg)
	cw := make([]uint16, RS544N)
	b.SetBytes(RS544CodewordBits / 8)
	b.ReportAllocs()
	for b.Loop() {
		c.Encode(msg, cw)
	}
	reportGbps(b, RS544CodewordBits)
}

func benchmarkDecode(b *testing.B, nerr int) {
	c := RS544()
	d := NewDecoder(c)
	rng := NewRNG(2)
	msg := make([]uint16, RS544K)
	randomMessage(rng, msg)
	cw := make([]uint16, RS544N)
	c.Encode(msg, cw)
	rx := make([]uint16, RS544N)
	copy(rx, cw)
	injectSymbolErrors(rng, rx, nerr, make([]int, RS544N))
	work := make([]uint16, RS544N)
	b.SetBytes(RS544CodewordBits / 8)
	b.ReportAllocs()
	for b.Loop() {
		copy(work, rx)
		if res := d.Decode(work); res.Status == DecodeUncorrectable {
			b.Fatal("uncorrectable")
		}
	}
	reportGbps(b, RS544CodewordBits)
}

func BenchmarkRS544Decode0(b *testing.B)  { benchmarkDecode(b, 0) }
func BenchmarkRS544Decode15(b *testing.B) { benchmarkDecode(b, 15) }
