package verify

import "fmt"

// pending is an expected output waiting for the RTL.
type pending struct {
	txn      Txn
	in       uint64 // cycle of the input that produced it
	due      uint64 // first cycle it may appear
	deadline uint64 // last cycle it may appear
	index    uint64 // number of the expected output, from 0
	done     bool
}

// scoreboard matches observed outputs with expected ones.
type scoreboard interface {
	// expect queues an expected output.
	expect(p pending)
	// observe matches an observed output; index numbers it from 0.
	observe(got *Txn, index uint64) *Divergence
	// tick reports an expected output whose last cycle has passed.
	tick(cycle uint64) *Divergence
	// dueAt appends the expected outputs that become due at cycle to dst.
	dueAt(cycle uint64, dst []Txn) []Txn
	// left returns the expected outputs never observed.
	left() []*pending
	// reset drops every pending output.
	reset()
	// comparerOf returns the comparer it reports with.
	comparerOf() *comparer
}

// inOrder is the in-order scoreboard: outputs come in the order of their
// inputs, each between due and deadline (equal for cycle-exact).
type inOrder struct {
	c *comparer
	q []pending
}

func (s *inOrder) expect(p pending) { s.q = append(s.q, p) }

func (s *inOrder) observe(got *Txn, index uint64) *Divergence {
	if len(s.q) == 0 {
		return &Divergence{Kind: KindUnexpected, Signal: s.c.validSig, Expected: "no output",
			Got: formatTxn(s.c.spec, got), Detail: fmt.Sprintf("output #%d has no input that produced it", index)}
	}
	h := &s.q[0]
	if got.Cycle < h.due {
		return &Divergence{Kind: KindEarly, Signal: s.c.validSig, Expected: formatTxn(s.c.spec, &h.txn), Got: formatTxn(s.c.spec, got),
			Detail: fmt.Sprintf("output #%d at cycle %d; its input was at cycle %d, so it is due from cycle %d", index, got.Cycle, h.in, h.due)}
	}
	d := s.c.diff(&h.txn, got)
	if d != nil {
		d.Detail = joinDetail(fmt.Sprintf("output #%d, from the input at cycle %d", index, h.in), d.Detail)
	}
	s.q = s.q[1:]
	if len(s.q) == 0 {
		s.q = s.q[:0:0]
	}
	return d
}

func (s *inOrder) tick(cycle uint64) *Divergence {
	if len(s.q) == 0 || s.q[0].deadline > cycle {
		return nil
	}
	return missing(s.c, &s.q[0])
}

func (s *inOrder) dueAt(cycle uint64, dst []Txn) []Txn {
	for i := range s.q {
		if s.q[i].due == cycle {
			dst = append(dst, s.q[i].txn)
		}
	}
	return dst
}

func (s *inOrder) left() []*pending {
	out := make([]*pending, len(s.q))
	for i := range s.q {
		out[i] = &s.q[i]
	}
	return out
}

func (s *inOrder) reset() { s.q = nil }

func missing(c *comparer, p *pending) *Divergence {
	w := fmt.Sprintf("by cycle %d", p.deadline)
	if p.due == p.deadline {
		w = fmt.Sprintf("at cycle %d", p.due)
	}
	return &Divergence{Kind: KindMissing, Signal: c.validSig, Expected: formatTxn(c.spec, &p.txn), Got: "no output",
		Detail: fmt.Sprintf("expected output #%d, from the input at cycle %d, was due %s", p.index, p.in, w)}
}

func joinDetail(a, b string) string {
	if b == "" {
		return a
	}
	return a + "; " + b
}

// byKey is the out-of-order scoreboard: an output matches the oldest
// pending output with the same key field.
type byKey struct {
	c      *comparer
	key    int
	keyW   int
	maxLat bool
	q      []pending
}

func (s *byKey) expect(p pending) { s.q = append(s.q, p) }

func (s *byKey) observe(got *Txn, index uint64) *Divergence {
	k := got.Fields[s.key]
	name := s.c.spec.Fields[s.key].Name
	if got.X != nil && got.X[s.key] != 0 {
		return &Divergence{Kind: KindX, Signal: s.c.fieldSig[s.key], Field: name, Expected: "a known key",
			Got: hexDigits(k, got.X[s.key], s.keyW), Detail: fmt.Sprintf("x/z in the key of output #%d", index)}
	}
	for i := range s.q {
		p := &s.q[i]
		if p.done || p.txn.Fields[s.key] != k {
			continue
		}
		if got.Cycle < p.due {
			return &Divergence{Kind: KindEarly, Signal: s.c.validSig, Expected: formatTxn(s.c.spec, &p.txn), Got: formatTxn(s.c.spec, got),
				Detail: fmt.Sprintf("output #%d with %s=%s at cycle %d is due from cycle %d", index, name, hexDigits(k, 0, s.keyW), got.Cycle, p.due)}
		}
		p.done = true
		d := s.c.diff(&p.txn, got)
		if d != nil {
			d.Detail = joinDetail(fmt.Sprintf("output #%d matched by %s=%s with the input at cycle %d", index, name, hexDigits(k, 0, s.keyW), p.in), d.Detail)
		}
		s.compact()
		return d
	}
	return &Divergence{Kind: KindUnexpected, Signal: s.c.fieldSig[s.key], Field: name, Expected: "no output",
		Got: formatTxn(s.c.spec, got), Detail: fmt.Sprintf("output #%d: no pending expected output has %s=%s", index, name, hexDigits(k, 0, s.keyW))}
}

func (s *byKey) compact() {
	i := 0
	for i < len(s.q) && s.q[i].done {
		i++
	}
	s.q = s.q[i:]
}

func (s *byKey) tick(cycle uint64) *Divergence {
	if !s.maxLat {
		return nil
	}
	// Deadlines grow with the queue order and q[0] is never done.
	if len(s.q) > 0 && s.q[0].deadline <= cycle {
		return missing(s.c, &s.q[0])
	}
	return nil
}

func (s *byKey) dueAt(cycle uint64, dst []Txn) []Txn {
	for i := range s.q {
		if !s.q[i].done && s.q[i].due == cycle {
			dst = append(dst, s.q[i].txn)
		}
	}
	return dst
}

func (s *byKey) left() []*pending {
	var out []*pending
	for i := range s.q {
		if !s.q[i].done {
			out = append(out, &s.q[i])
		}
	}
	return out
}

func (s *byKey) reset() { s.q = nil }
