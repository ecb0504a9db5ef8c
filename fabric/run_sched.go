package fabric

import (
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
}

// flowScheduler is the hosts' software as one component: it posts each
// flow as a work request to its source NIC once its start time has come
// and the flows it depends on have completed, and learns of completions
// from the NICs' completion links (requester CQEs).
type flowScheduler struct {
	h     *rtlmodel.Handle
	flows []Flow
	st    []flowState
	after [][]int // flow -> flows that wait for it
	nics  []*nic400g.NIC
	out   []*rtlmodel.Link[nic400g.WorkRequest]
	in    []*rtlmodel.Link[nic400g.Completion]
	// per (source NIC, QP): flows posted and not yet complete, in order
	inflight map[[2]uint32][]int
	queue    []int // flows ready to post, by ready time then id
	doneN    int
}

func (s *flowScheduler) Eval(edge rtlmodel.Edge) rtlmodel.Wake {
	now := edge.Time
	for src, l := range s.in {
		for {
			c, ok := l.Recv()
			if !ok {
				break
			}
			s.complete(uint32(src), c, now)
		}
	}
	next := rtlmodel.Forever
	k := 0
	for _, f := range s.queue {
		st := &s.st[f]
		if st.ready > now {
			next = min(next, st.ready)
			s.queue[k] = f
			k++
			continue
		}
		fl := s.flows[f]
		out := s.out[fl.Src]
		if !out.CanSend() {
			next = min(next, now+1)
			s.queue[k] = f
			k++
			continue
		}
		wr := nic400g.WorkRequest{QP: uint32(fl.Dst), Dst: uint32(fl.Dst), DestQP: uint32(fl.Src), Bytes: fl.Bytes, Posted: now}
		out.SendAt(wr, s.nics[fl.Src].Host().Doorbell(now, false))
		st.posted, st.started = now, true
		key := [2]uint32{uint32(fl.Src), uint32(fl.Dst)}
		s.inflight[key] = append(s.inflight[key], f)
	}
	s.queue = s.queue[:k]
	if next == rtlmodel.Forever {
		return rtlmodel.Never
	}
	d := s.h.Domain()
	return rtlmodel.Wake(d.CycleAt(d.FirstEdgeAtOrAfter(max(next, now+1))))
}

// complete records a requester completion and releases dependent flows.
func (s *flowScheduler) complete(src uint32, c nic400g.Completion, now rtlmodel.Time) {
	key := [2]uint32{src, c.QP}
	fifo := s.inflight[key]
	if len(fifo) == 0 {
		return
	}
	f := fifo[0]
	s.inflight[key] = fifo[1:]
	s.st[f].done = c.Visible
	s.doneN++
	for _, g := range s.after[f] {
		st := &s.st[g]
		st.pending--
		st.ready = max(st.ready, c.Visible)
		if st.pending == 0 {
			s.queue = append(s.queue, g)
		}
	}
}
