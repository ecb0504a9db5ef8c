package pipeline

import "fmt"

// Scheduler chooses which of N queues sends next. It keeps a mirror of the
// queue state that the caller supplies, so the switch and the NIC can use
// it over their own queues:
//
//   - SetHead(q, bytes) declares the size of q's head packet, 0 for an
//     empty queue (call it when a packet arrives at an empty queue, or
//     whenever the head changes other than by Served);
//   - SetPaused(q, true) makes q ineligible while it stays non-empty (PFC
//     pause, a shaper that does not conform); a paused queue is treated as
//     empty, as an idle queue is;
//   - Pick returns the queue to serve, or -1; it may advance internal round
//     state, but calling it again without another call in between returns
//     the same queue and changes nothing;
//   - Served(q, bytes, nextHead) records that q sent its head of bytes and
//     that its new head is nextHead bytes (0: now empty).
//
// Schedulers allocate nothing per decision.
type Scheduler interface {
	// Size returns the number of queues.
	Size() int
	// SetHead declares q's head packet size in bytes (0: empty).
	SetHead(q int, bytes uint32)
	// SetPaused makes q ineligible (true) or eligible again (false).
	SetPaused(q int, paused bool)
	// Pick returns the queue that sends next, or -1 when none can.
	Pick() int
	// Served records that q sent bytes and now has a head of nextHead bytes.
	Served(q int, bytes, nextHead uint32)
	// Reset empties every queue and clears all pauses and round state.
	Reset()
}

// StrictPriority serves the eligible queue with the lowest index: queue 0
// has the highest priority, and a lower queue sends only when every queue
// above it is empty or paused.
type StrictPriority struct {
	n        int
	head     []uint32
	paused   Bits
	eligible Bits
}

// NewStrictPriority returns a strict-priority scheduler over n >= 1 queues.
func NewStrictPriority(n int) *StrictPriority {
	if n < 1 {
		panic(fmt.Sprintf("pipeline: strict priority over %d queues", n))
	}
	return &StrictPriority{n: n, head: make([]uint32, n), paused: NewBits(n), eligible: NewBits(n)}
}

// Size returns the number of queues.
func (s *StrictPriority) Size() int { return s.n }

// SetHead declares q's head packet size (0: empty).
func (s *StrictPriority) SetHead(q int, bytes uint32) {
	s.head[q] = bytes
	s.eligible.Put(q, bytes > 0 && !s.paused.Has(q))
}

// SetPaused pauses or resumes q.
func (s *StrictPriority) SetPaused(q int, paused bool) {
	s.paused.Put(q, paused)
	s.eligible.Put(q, s.head[q] > 0 && !paused)
}

// Pick returns the highest-priority eligible queue, or -1.
func (s *StrictPriority) Pick() int { return s.eligible.first(0, s.n) }

// Served records the new head of q.
func (s *StrictPriority) Served(q int, _ uint32, nextHead uint32) { s.SetHead(q, nextHead) }

// Reset empties every queue and clears all pauses.
func (s *StrictPriority) Reset() {
	clear(s.head)
	s.paused.Reset()
	s.eligible.Reset()
}
