package fabric

import (
	"cmp"
	"slices"

	"github.com/fabricmodel/fabricmodel/nic400g"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// flowState is one flow's progress.
type flowState struct {
	pending int // flows it still waits for
	ready   rtlmodel.Time
	posted  rtlmodel.Time
	done    rtlmodel.Time
	started bool
	// failed: how the flow's work request ended when its QP failed
	// (StatusOK: it did not), at failedAt, the error CQE's visibility
	failed   nic400g.CompletionStatus
	failedAt rtlmodel.Time
}

// flowTable is the workload's flows and their progress, shared by the
// hosts' schedulers: each flow is posted, and learns of its completion, at
// the scheduler of its source host.
type flowTable struct {
	flows []Flow
	st    []flowState
	after [][]int // flow -> flows that wait for it
	hosts []*hostScheduler
}

// done returns how many flows have completed.
func (t *flowTable) done() int {
	n := 0
	for _, h := range t.hosts {
		n += h.doneN
	}
	return n
}

// failed returns how many flows have failed.
func (t *flowTable) failed() int {
	n := 0
	for _, h := range t.hosts {
		n += h.failedN
	}
	return n
}

// hostScheduler is one host's software as a component, in its NIC's
// partition: it posts each flow of the host as a work request to the NIC
// once its start time has come and the flows it depends on have
// completed. A completion reaches the scheduler of the completed flow and
// those of the flows waiting for it at the time its CQE becomes visible,
// told when the NIC writes the CQE (at least a PCIe write and a poll
// earlier, nic400g.NIC.MinCompletionLatency, the lookahead of the hosts'
// coupling), so every host acts at the edge a single scheduler of all
// hosts would, in the same order.
type hostScheduler struct {
	h     *rtlmodel.Handle
	id    int
	t     *flowTable
	nic   *nic400g.NIC
	out   *rtlmodel.Link[nic400g.WorkRequest]
	queue []int // flows ready to post, in the order they became ready
	// per QP: flows posted and not yet complete, in order
	inflight map[uint32][]int
	events   []flowEvent // sorted by flowEvent.before
	seq      uint64      // completions taken from the NIC so far
	doneN    int
	failedN  int
}

// flowEvent is a completion as one host's scheduler sees it: flow done
// (the host's own flow completed) or one of the flow's dependencies met.
type flowEvent struct {
	at      rtlmodel.Time // the completion's arrival (CQE visible, on an edge)
	src     int           // the host whose flow completed
	seq     uint64        // the completion's place among that host's
	idx     int           // 0: flow done; i > 0: the flow's (i-1)th waiter
	flow    int
	visible rtlmodel.Time
	status  nic400g.CompletionStatus // of a flow done: StatusOK, or how it failed
}

// before orders events as one scheduler of all hosts processes them: by
// arrival, then by host, then in each host's completion order, the
// completed flow first and then its waiters in order.
func (a flowEvent) before(b flowEvent) int {
	if c := cmp.Compare(a.at, b.at); c != 0 {
		return c
	}
	if c := cmp.Compare(a.src, b.src); c != 0 {
		return c
	}
	if c := cmp.Compare(a.seq, b.seq); c != 0 {
		return c
	}
	return cmp.Compare(a.idx, b.idx)
}

// taken receives a completion when the NIC sends it (the completion link
// takes on send), at and after which it is visible: it tells this host
// that its flow is done and the hosts of the waiting flows that a
// dependency is met, both at at.
func (s *hostScheduler) taken(c nic400g.Completion, at rtlmodel.Time) rtlmodel.Time {
	fifo := s.inflight[c.QP]
	if len(fifo) == 0 {
		return at
	}
	f := fifo[0]
	s.inflight[c.QP] = fifo[1:]
	seq := s.seq
	s.seq++
	s.notify(flowEvent{at: at, src: s.id, seq: seq, flow: f, visible: c.Visible, status: c.Status})
	if c.Status != nic400g.StatusOK {
		return at // the flows waiting for it wait for ever
	}
	for j, g := range s.t.after[f] {
		s.t.hosts[s.t.flows[g].Poster()].notify(flowEvent{at: at, src: s.id, seq: seq, idx: j + 1, flow: g, visible: c.Visible})
	}
	return at
}

// notify queues an event for this host and wakes it for it.
func (s *hostScheduler) notify(ev flowEvent) {
	i, _ := slices.BinarySearchFunc(s.events, ev, flowEvent.before)
	s.events = slices.Insert(s.events, i, ev)
	s.h.WakeAt(ev.at)
}

// Eval applies the events that have arrived, then posts every ready flow.
func (s *hostScheduler) Eval(edge rtlmodel.Edge) rtlmodel.Wake {
	now := edge.Time
	k := 0
	for k < len(s.events) && s.events[k].at <= now {
		s.apply(s.events[k])
		k++
	}
	s.events = s.events[:copy(s.events, s.events[k:])]
	next := rtlmodel.Forever
	if len(s.events) > 0 {
		next = s.events[0].at
	}
	k = 0
	for _, f := range s.queue {
		st := &s.t.st[f]
		if st.ready > now {
			next = min(next, st.ready)
			s.queue[k] = f
			k++
			continue
		}
		if !s.out.CanSend() {
			next = min(next, now+1)
			s.queue[k] = f
			k++
			continue
		}
		fl := s.t.flows[f]
		wr := fl.workRequest(now)
		s.out.SendAt(wr, s.nic.Host().Doorbell(now, false))
		st.posted, st.started = now, true
		s.inflight[wr.QP] = append(s.inflight[wr.QP], f)
	}
	s.queue = s.queue[:k]
	if next == rtlmodel.Forever {
		return rtlmodel.Never
	}
	d := s.h.Domain()
	return rtlmodel.Wake(d.CycleAt(d.FirstEdgeAtOrAfter(max(next, now+1))))
}

// apply records a completion: a flow of this host done, or a dependency
// of one met (which may make it ready).
func (s *hostScheduler) apply(ev flowEvent) {
	st := &s.t.st[ev.flow]
	if ev.idx == 0 && ev.status != nic400g.StatusOK {
		st.failed, st.failedAt = ev.status, ev.visible
		s.failedN++
		return
	}
	if ev.idx == 0 {
		st.done = ev.visible
		s.doneN++
		return
	}
	st.pending--
	st.ready = max(st.ready, ev.visible)
	if st.pending == 0 {
		s.queue = append(s.queue, ev.flow)
	}
}
