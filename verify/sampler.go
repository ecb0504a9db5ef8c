package verify

import (
	"io"

	"github.com/fabricmodel/fabricmodel/rtlmodel/vcd"
)

// Sampler walks a VCD body and stops at each active edge of a clock with
// the values the watched signals held just before that edge: the values at
// the end of the previous time step, which is what a flip-flop clocked by
// the edge captures. Only the watched signals are kept, so memory does not
// grow with the length of the trace.
type Sampler struct {
	r      *vcd.Reader
	slotOf map[int]int // vcd.Signal.Index to slot
	widths []int
	cur    [][]byte // values as the current time step leaves them
	pre    [][]byte // values at the end of the previous time step
	dirty  []bool
	commit bool

	clk     probe
	falling bool

	stepTime uint64
	eof      bool

	// Cycle is the index of the current edge (0 for the first).
	Cycle uint64
	// Time is the VCD time of the current edge.
	Time  uint64
	edges uint64
}

// newSampler watches the given signals; clk (one bit of a watched signal)
// is the clock.
func newSampler(r *vcd.Reader, sigs []*vcd.Signal, clk probe, falling bool) *Sampler {
	s := &Sampler{r: r, slotOf: make(map[int]int, len(sigs)), clk: clk, falling: falling}
	for _, sig := range sigs {
		if _, ok := s.slotOf[sig.Index]; ok {
			continue
		}
		s.slotOf[sig.Index] = len(s.widths)
		s.widths = append(s.widths, sig.Width)
		s.cur = append(s.cur, xs(sig.Width))
		s.pre = append(s.pre, xs(sig.Width))
		s.dirty = append(s.dirty, false)
	}
	return s
}

func xs(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = 'x'
	}
	return b
}

// slot returns the slot of a watched signal.
func (s *Sampler) slot(sig *vcd.Signal) int { return s.slotOf[sig.Index] }

// bits returns the sampled value of a slot, most significant bit first.
func (s *Sampler) bits(slot int) []byte { return s.pre[slot] }

// Next advances to the next active edge. It returns false at the end of
// the trace, or an error for malformed VCD input.
func (s *Sampler) Next() (bool, error) {
	if s.commit {
		s.commitStep()
	}
	for !s.eof {
		ev, err := s.r.Next()
		if err == io.EOF {
			s.eof = true
			if s.edge() {
				s.fire()
				return true, nil
			}
			return false, nil
		}
		if err != nil {
			return false, err
		}
		switch ev.Kind {
		case vcd.EventTime:
			if s.edge() {
				s.fire()
				s.stepTime = ev.Time
				return true, nil
			}
			s.commitStep()
			s.stepTime = ev.Time
		case vcd.EventChange:
			if i, ok := s.slotOf[ev.Signal.Index]; ok {
				s.set(i, ev.Value)
			}
		}
	}
	return false, nil
}

func (s *Sampler) fire() {
	s.Cycle = s.edges
	s.edges++
	s.Time = s.stepTime
	s.commit = true
}

func (s *Sampler) set(i int, v vcd.Value) {
	b := v.Bits()
	dst := s.cur[i]
	if v.Kind() != vcd.ValueBits || len(b) != len(dst) {
		for j := range dst {
			dst[j] = 'x'
		}
	} else {
		copy(dst, b)
	}
	s.dirty[i] = true
}

// edge reports whether the clock made the active transition during the
// step that is ending.
func (s *Sampler) edge() bool {
	was, now := s.clk.bit(s.pre), s.clk.bit(s.cur)
	if s.falling {
		return was == '1' && now == '0'
	}
	return was == '0' && now == '1'
}

func (s *Sampler) commitStep() {
	for i, d := range s.dirty {
		if d {
			copy(s.pre[i], s.cur[i])
			s.dirty[i] = false
		}
	}
	s.commit = false
}
