package pipeline

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// FixedStageConfig describes a fixed-latency pipeline stage.
type FixedStageConfig struct {
	// Cycles is the latency in cycles of the stage's domain from the edge
	// at which an item is taken from the input link to the edge at which
	// it is sent on the output link (0: the same edge).
	Cycles uint64
	// Width is the throughput limit: items taken and items sent per cycle
	// (at least 1). The output link must carry at least Width per cycle.
	Width int
	// Source says where the latency figure comes from (a datasheet, a
	// paper, a design note); the budget report prints it.
	Source string
}

// FixedStage is a component that delivers every item it takes from its
// input link on its output link Cycles cycles later, taking and sending at
// most Width items per cycle. It holds max(Cycles, 1)·Width items, as a
// pipeline of that many registers does: when the output is blocked (no
// credits) it fills and then stops taking input. An item sent at cycle c
// over an input link of latency a, in the stage's domain, and on through
// an output link of latency b to a receiver in the same domain arrives at
// cycle c + a + Cycles + b.
//
// While it holds nothing it sleeps (returns Never) until its input link
// delivers; while it holds items that are not yet due it sleeps until the
// first is.
type FixedStage[T any] struct {
	h       *rtlmodel.Handle
	cfg     FixedStageConfig
	in, out *rtlmodel.Link[T]

	ring    []stageEntry[T]
	head, n int

	items     *rtlmodel.Counter
	occupancy *rtlmodel.Gauge
}

type stageEntry[T any] struct {
	item T
	due  uint64 // cycle at which it may be sent
}

// AddFixedStage registers a fixed-latency stage at path in domain d of
// engine e. Connect its links before the run.
func AddFixedStage[T any](e *rtlmodel.Engine, d *rtlmodel.Domain, path string, cfg FixedStageConfig) (*FixedStage[T], error) {
	if cfg.Width < 1 {
		return nil, fmt.Errorf("stage %s: width %d; a stage passes at least 1 item per cycle", path, cfg.Width)
	}
	s := &FixedStage[T]{cfg: cfg, ring: make([]stageEntry[T], int(max(cfg.Cycles, 1))*cfg.Width)}
	h, err := e.Add(d, path, s)
	if err != nil {
		return nil, err
	}
	s.h = h
	st := e.Stats()
	s.items = st.Counter(path+"/items", "items", "items delivered on the output link")
	s.occupancy = st.Gauge(path+"/occupancy", "items", "items inside the stage")
	return s, nil
}

// Handle returns the stage's handle, to create its links with.
func (s *FixedStage[T]) Handle() *rtlmodel.Handle { return s.h }

// Config returns the stage's configuration.
func (s *FixedStage[T]) Config() FixedStageConfig { return s.cfg }

// Connect attaches the input link (into the stage) and the output link
// (out of it).
func (s *FixedStage[T]) Connect(in, out *rtlmodel.Link[T]) error {
	path := s.h.Path()
	switch {
	case in == nil || out == nil:
		return fmt.Errorf("stage %s: both links are needed", path)
	case in.To() != s.h:
		return fmt.Errorf("stage %s: input link %s does not end at the stage", path, in.Name())
	case out.From() != s.h:
		return fmt.Errorf("stage %s: output link %s does not start at the stage", path, out.Name())
	case out.Config().Width < s.cfg.Width:
		return fmt.Errorf("stage %s: output link %s carries %d items per cycle, the stage sends up to %d",
			path, out.Name(), out.Config().Width, s.cfg.Width)
	}
	s.in, s.out = in, out
	return nil
}

// Len returns the number of items inside the stage.
func (s *FixedStage[T]) Len() int { return s.n }

// Eval sends the items that are due, then takes new ones.
func (s *FixedStage[T]) Eval(edge rtlmodel.Edge) rtlmodel.Wake {
	if s.in == nil {
		panic(fmt.Sprintf("pipeline: stage %s evaluated before Connect", s.h.Path()))
	}
	sent := s.send(edge.Cycle, 0)
	for took := 0; took < s.cfg.Width && s.n < len(s.ring); took++ {
		v, ok := s.in.Recv()
		if !ok {
			break
		}
		s.ring[(s.head+s.n)%len(s.ring)] = stageEntry[T]{v, edge.Cycle + s.cfg.Cycles}
		s.n++
	}
	if s.cfg.Cycles == 0 {
		s.send(edge.Cycle, sent)
	}
	s.occupancy.Set(int64(s.n))

	w := rtlmodel.Never
	if s.n > 0 {
		if due := s.ring[s.head].due; due > edge.Cycle {
			w = rtlmodel.Wake(due)
		} else if s.out.Credits() > 0 {
			w = edge.Next() // width-limited: more to send next cycle
		} // else a credit return wakes the stage
	}
	if _, ok := s.in.Peek(); ok && s.n < len(s.ring) {
		w = edge.Next()
	}
	return w
}

// send sends due items while the output takes them, up to Width in all.
func (s *FixedStage[T]) send(cycle uint64, sent int) int {
	for sent < s.cfg.Width && s.n > 0 && s.ring[s.head].due <= cycle && s.out.CanSend() {
		s.out.Send(s.ring[s.head].item)
		var zero stageEntry[T]
		s.ring[s.head] = zero
		s.head = (s.head + 1) % len(s.ring)
		s.n--
		sent++
		s.items.Inc()
	}
	return sent
}

// BlockedOn reports a due item that waits for output credits.
func (s *FixedStage[T]) BlockedOn() string {
	if s.n > 0 && s.out.Credits() == 0 {
		return fmt.Sprintf("credits on %s (%d items inside)", s.out.Name(), s.n)
	}
	return ""
}

// Budget returns the stage's latency record, named by its path.
func (s *FixedStage[T]) Budget() StageBudget {
	return StageOf(s.h.Path(), s.cfg.Cycles, s.h.Domain(), s.cfg.Source)
}
