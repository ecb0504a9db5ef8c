package vcd

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
)

var (
	benchOnce sync.Once
	benchVCD  []byte
)

// benchFile generates a VCD of about 16 MB: 2,000 signals of widths 1 to
// 128 bits plus reals in 20 modules, with value changes at 20,000 times.
func benchFile(tb testing.TB) []byte {
	benchOnce.Do(func() {
		rng := rand.New(rand.NewPCG(7, 7))
		var buf bytes.Buffer
		w, err := NewWriter(&buf, WriterOptions{})
		if err != nil {
			tb.Fatal(err)
		}
		var hs []Handle
		var widths []int
		for m := 0; m < 20; m++ {
			_ = w.PushScope(ScopeModule, fmt.Sprintf("blk[%d]", m))
			for i := 0; i < 100; i++ {
				width := []int{1, 1, 1, 2, 8, 16, 32, 64, 128}[rng.IntN(9)]
				typ := VarWire
				if i%50 == 49 {
					typ, width = VarReal, 64
				}
				h, err := w.Declare(typ, width, fmt.Sprintf("s%d", i))
				if err != nil {
					tb.Fatal(err)
				}
				hs = append(hs, h)
				widths = append(widths, width)
				if typ == VarReal {
					widths[len(widths)-1] = -1
				}
			}
			_ = w.PopScope()
		}
		wide := strings.Repeat("01", 64)
		for step := uint64(0); buf.Len() < 16<<20; step++ {
			_ = w.Time(step * 800)
			for k := 0; k < 60; k++ {
				i := rng.IntN(len(hs))
				switch width := widths[i]; {
				case width < 0:
					_ = w.SetReal(hs[i], rng.Float64())
				case width == 128:
					j := rng.IntN(64)
					_ = w.SetBits(hs[i], wide[j:j+64]+"x"+wide[:63])
				case width == 64:
					_ = w.SetUint64(hs[i], rng.Uint64())
				default:
					_ = w.SetUint64(hs[i], rng.Uint64()&(1<<uint(width)-1))
				}
			}
		}
		if err := w.Close(); err != nil {
			tb.Fatal(err)
		}
		benchVCD = buf.Bytes()
	})
	return benchVCD
}

// BenchmarkReader measures parse speed in MB/s over a generated file,
// touching every change's value the way a consumer would.
func BenchmarkReader(b *testing.B) {
	data := benchFile(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		rd, err := NewReader(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for {
			ev, err := rd.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			if ev.Kind == EventChange {
				n += ev.Value.Width()
			}
		}
		if n == 0 {
			b.Fatal("no changes")
		}
	}
}

func benchWriter(b *testing.B, width int) (*Writer, Handle) {
	w, err := NewWriter(io.Discard, WriterOptions{})
	if err != nil {
		b.Fatal(err)
	}
	h, err := w.Declare(VarWire, width, "sig")
	if err != nil {
		b.Fatal(err)
	}
	if err := w.Time(0); err != nil {
		b.Fatal(err)
	}
	return w, h
}

// BenchmarkWriterUint64 is the cost of one written change of a 32-bit
// signal through SetUint64, time steps included: 0 allocs/op.
func BenchmarkWriterUint64(b *testing.B) {
	w, h := benchWriter(b, 32)
	b.ReportAllocs()
	b.ResetTimer()
	var t uint64
	for b.Loop() {
		t++
		if err := w.Time(t); err != nil {
			b.Fatal(err)
		}
		if err := w.SetUint64(h, t*0x9e3779b9&0xffffffff); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWriterUint64Unchanged is the cost of a SetUint64 that writes
// nothing because the value did not change.
func BenchmarkWriterUint64Unchanged(b *testing.B) {
	w, h := benchWriter(b, 32)
	_ = w.SetUint64(h, 5)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if err := w.SetUint64(h, 5); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWriterBitsWide is the cost of one change of a 128-bit signal
// holding x, through SetBits.
func BenchmarkWriterBitsWide(b *testing.B) {
	w, h := benchWriter(b, 128)
	vals := []string{strings.Repeat("01", 63) + "x1", strings.Repeat("10", 63) + "zx"}
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		i++
		if err := w.SetBits(h, vals[i&1]); err != nil {
			b.Fatal(err)
		}
	}
}
