package rtlmodel

import (
	"fmt"
	"testing"
	"time"
)

// lanes is the number of parallel links between neighbouring benchmark
// stages: like a router's ports, every stage has several inputs to look at.
const lanes = 4

// ringStage is a benchmark component with lanes inputs and outputs: it
// forwards the tokens it holds to the next stage, one per cycle, and
// accumulates what it receives in a register. Busy and idle stages run the
// same code; only the tokens differ.
type ringStage struct {
	in, out [lanes]*Link[uint64]
	reg     *Reg[uint64]
	tokens  int
}

func (s *ringStage) Eval(ed Edge) Wake {
	for _, in := range s.in {
		if v, ok := in.Recv(); ok {
			s.reg.Set(s.reg.Q() + v)
			s.tokens++
		}
	}
	if s.tokens > 0 && s.out[0].CanSend() {
		s.out[0].Send(ed.Cycle)
		s.tokens--
	}
	if s.tokens > 0 {
		return ed.Next()
	}
	return Never
}

// buildBenchRing makes n stages in credited rings: the first active ones
// are busy and pass tokens around their own ring; the rest idle in another.
func buildBenchRing(b *testing.B, n, active int, tick bool) *Engine {
	e := NewEngine(Options{AlwaysTick: tick})
	d, _ := e.AddDomain("clk", 800, 0)
	stages := make([]*ringStage, n)
	hs := make([]*Handle, n)
	for i := range stages {
		stages[i] = &ringStage{}
		if i < active {
			stages[i].tokens = 2
		}
		h, err := e.Add(d, fmt.Sprintf("s%d", i), stages[i])
		if err != nil {
			b.Fatal(err)
		}
		hs[i] = h
		stages[i].reg = NewReg[uint64](h, "acc", 0)
	}
	for i := range stages {
		j := (i + 1) % n
		if i == active-1 {
			j = 0
		} else if i == n-1 {
			j = active % n
		}
		for k := 0; k < lanes; k++ {
			l, err := NewLink[uint64](fmt.Sprintf("l%d_%d", i, k), hs[i], hs[j],
				LinkConfig{Latency: 1, Width: 1, Credits: 2, CreditLatency: 1})
			if err != nil {
				b.Fatal(err)
			}
			stages[i].out[k], stages[j].in[k] = l, l
		}
	}
	return e
}

// BenchmarkEvalCommit measures one cycle of 64 always-active components
// (each looks at 4 input links, receives on one, writes a register and
// sends on a credited link). The
// per-component-cycle cost is reported as ns/comp-cycle; allocs/op must
// be 0 in steady state.
func BenchmarkEvalCommit(b *testing.B) {
	const n = 64
	e := buildBenchRing(b, n, n, false)
	const period = 800
	if err := e.Run(1000 * period); err != nil { // warm up: grow every queue
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	start := e.Now()
	if err := e.Run(start + Time(b.N)*period); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/comp-cycle")
}

// BenchmarkIdleSkip runs 1000 components of which 10 (1 %) are active,
// with idle skipping and with always-tick, alternating 2000-cycle slices of
// each in one run, and reports the ratio of their wall times per simulated
// cycle as speedup-x (ns/op counts one slice of each).
func BenchmarkIdleSkip(b *testing.B) {
	const n, active, slice = 1000, 10, 2000
	const period = 800
	skipE := buildBenchRing(b, n, active, false)
	tickE := buildBenchRing(b, n, active, true)
	var skip, tick time.Duration
	at := Time(100 * period)
	for _, e := range []*Engine{skipE, tickE} {
		if err := e.Run(at); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		at += slice * period
		t0 := time.Now()
		if err := skipE.Run(at); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if err := tickE.Run(at); err != nil {
			b.Fatal(err)
		}
		skip += t1.Sub(t0)
		tick += time.Since(t1)
	}
	b.ReportMetric(float64(skip.Nanoseconds())/float64(b.N*slice), "ns/cycle-skip")
	b.ReportMetric(float64(tick.Nanoseconds())/float64(b.N*slice), "ns/cycle-tick")
	b.ReportMetric(float64(tick)/float64(skip), "speedup-x")
}
