package pipeline

import (
	"fmt"
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// requestPatterns returns 256 random request vectors over n requesters,
// about half of them asking.
func requestPatterns(n int) []Bits {
	rng := rtlmodel.NewRNG(1, "bench")
	out := make([]Bits, 256)
	for i := range out {
		out[i] = NewBits(n)
		for j := range n {
			out[i].Put(j, rng.Intn(2) == 0)
		}
	}
	return out
}

func benchArbiter(b *testing.B, a Arbiter) {
	req := requestPatterns(a.Size())
	b.ReportAllocs()
	b.ResetTimer()
	g := 0
	for i := 0; b.Loop(); i++ {
		g += a.Grant(req[i&255])
	}
	_ = g
}

func BenchmarkArbiter(b *testing.B) {
	for _, n := range []int{8, 64, 128} {
		w := make([]uint32, n)
		for i := range w {
			w[i] = uint32(1 + i%4)
		}
		wrr, _ := NewWeightedRoundRobin(w)
		b.Run(fmt.Sprintf("rr/n=%d", n), func(b *testing.B) { benchArbiter(b, NewRoundRobin(n)) })
		b.Run(fmt.Sprintf("wrr/n=%d", n), func(b *testing.B) { benchArbiter(b, wrr) })
		b.Run(fmt.Sprintf("matrix/n=%d", n), func(b *testing.B) { benchArbiter(b, NewMatrix(n)) })
	}
}

// benchScheduler makes one decision per op over always-backlogged queues
// with mixed packet sizes; the first `sparse` queues (strict classes) are
// not backlogged but get a packet every eighth decision.
func benchScheduler(b *testing.B, s Scheduler, sparse int) {
	rng := rtlmodel.NewRNG(2, "bench")
	pkts := make([]uint32, 1024)
	for i := range pkts {
		pkts[i] = uint32(64 + rng.Intn(9000-63))
	}
	head := make([]uint32, s.Size())
	for q := sparse; q < len(head); q++ {
		head[q] = pkts[q]
		s.SetHead(q, head[q])
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if sparse > 0 && i&7 == 0 {
			q := (i >> 3) % sparse
			if head[q] == 0 {
				head[q] = 64
				s.SetHead(q, 64)
			}
		}
		q := s.Pick()
		sz := head[q]
		head[q] = pkts[i&1023]
		if q < sparse {
			head[q] = 0
		}
		s.Served(q, sz, head[q])
	}
}

var (
	_ Scheduler = (*StrictPriority)(nil)
	_ Scheduler = (*DWRR)(nil)
	_ Scheduler = (*SPDWRR)(nil)
	_ Arbiter   = (*RoundRobin)(nil)
	_ Arbiter   = (*WeightedRoundRobin)(nil)
	_ Arbiter   = (*Matrix)(nil)
)

func BenchmarkScheduler(b *testing.B) {
	d, _ := NewDWRR([]uint32{9216, 9216, 18432, 9216, 27648, 9216, 9216, 36864})
	small, _ := NewDWRR([]uint32{1500, 1500, 3000, 1500, 4500, 1500, 1500, 6000})
	sp, _ := NewSPDWRR([]QueueClass{{0, 0}, {1, 0}, {2, 9216}, {2, 9216}, {2, 18432}, {2, 9216}, {2, 27648}, {2, 9216}})
	b.Run("strict", func(b *testing.B) { benchScheduler(b, NewStrictPriority(8), 0) })
	b.Run("dwrr", func(b *testing.B) { benchScheduler(b, d, 0) })
	b.Run("dwrr-small-quanta", func(b *testing.B) { benchScheduler(b, small, 0) })
	b.Run("sp+dwrr", func(b *testing.B) { benchScheduler(b, sp, 2) })
}

func BenchmarkShaper(b *testing.B) {
	s, _ := NewShaper(397_123_456_789, 7, 2*9216)
	sizes := make([]uint64, 256)
	rng := rtlmodel.NewRNG(3, "bench")
	for i := range sizes {
		sizes[i] = uint64(64 + rng.Intn(9000))
	}
	b.Run("conform", func(b *testing.B) {
		b.ReportAllocs()
		now := rtlmodel.Time(0)
		for i := 0; b.Loop(); i++ {
			if s.Conform(now, sizes[i&255]) {
				s.Consume(now, sizes[i&255])
			}
			now += 800
		}
	})
	b.Run("next-conform", func(b *testing.B) {
		b.ReportAllocs()
		now := rtlmodel.Time(0)
		for i := 0; b.Loop(); i++ {
			now = s.NextConformTime(now, sizes[i&255])
			s.Consume(now, sizes[i&255])
		}
	})
}

func BenchmarkCreditQueue(b *testing.B) {
	q := NewCreditQueue[int](CreditQueueConfig{Capacity: 1 << 20, CellBytes: 256, Credits: 1024})
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		q.Push(i, 1500)
		if q.Len() > 32 {
			_, bytes, _ := q.Pop()
			q.Return(q.Units(bytes))
		}
	}
}

// streamSource sends width items every cycle, forever.
type streamSource struct {
	out *rtlmodel.Link[int]
	id  int
}

func (s *streamSource) Eval(edge rtlmodel.Edge) rtlmodel.Wake {
	for s.out.CanSend() {
		s.out.Send(s.id)
		s.id++
	}
	return edge.Next()
}

// countSink takes everything that arrives.
type countSink struct {
	in *rtlmodel.Link[int]
	n  uint64
}

func (s *countSink) Eval(rtlmodel.Edge) rtlmodel.Wake {
	for {
		if _, ok := s.in.Recv(); !ok {
			return rtlmodel.Never
		}
		s.n++
	}
}

// BenchmarkFixedStage runs a source, a 9-cycle stage of width 2 and a sink
// at full rate in one engine; one op is one cycle (two items through the
// stage), in steady state.
func BenchmarkFixedStage(b *testing.B) {
	e := rtlmodel.NewEngine(rtlmodel.Options{})
	d, _ := e.AddDomain("core", 800, 0)
	src, sink := &streamSource{}, &countSink{}
	hs, _ := e.Add(d, "src", src)
	st, _ := AddFixedStage[int](e, d, "stage", FixedStageConfig{Cycles: 9, Width: 2})
	hk, _ := e.Add(d, "sink", sink)
	src.out, _ = rtlmodel.NewLink[int]("in", hs, st.Handle(), rtlmodel.LinkConfig{Latency: 1, Width: 2, Credits: 4, CreditLatency: 1})
	sink.in, _ = rtlmodel.NewLink[int]("out", st.Handle(), hk, rtlmodel.LinkConfig{Latency: 1, Width: 2, Credits: 4, CreditLatency: 1})
	if err := st.Connect(src.out, sink.in); err != nil {
		b.Fatal(err)
	}
	now := rtlmodel.Time(1000 * 800)
	if err := e.Run(now); err != nil { // warm up: queues at their steady size
		b.Fatal(err)
	}
	start := sink.n
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		now += 800
		if err := e.Run(now); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if got := sink.n - start; got != 2*uint64(b.N) {
		b.Fatalf("%d items in %d cycles; want 2 per cycle", got, b.N)
	}
}
