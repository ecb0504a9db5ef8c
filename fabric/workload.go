package fabric

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/nic400g"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// Flow is one message from endpoint Src to endpoint Dst: Bytes written,
// sent or read (Op) no earlier than Start and not before every flow listed in After has been
// delivered. Generators number flows 0, 1, 2, ... in the order they
// return them, and After only names flows earlier in that order, so a
// flow list is a dependency DAG in topological order. Times are
// rtlmodel picoseconds; endpoints are the ids of TopologyConfig (FACTS 5.3).
type Flow struct {
	// ID numbers the flow; its data goes from endpoint Src to endpoint Dst.
	ID, Src, Dst int
	Bytes        uint64
	Start        rtlmodel.Time
	// Op is how the data moves: an RDMA WRITE or a SEND that Src posts,
	// or an RDMA READ that Dst posts to fetch it from Src (the zero value
	// is a WRITE).
	Op nic400g.Op
	// After lists the IDs of the flows that must complete first.
	After []int
	// Job tells the flows of different workloads apart (Combine sets it).
	Job int
}

// Poster is the endpoint whose host posts the flow's work request and
// sees its completion: Dst for a READ, which fetches the data, Src for
// the others, which push it.
func (f Flow) Poster() int {
	if f.Op == nic400g.OpRead {
		return f.Dst
	}
	return f.Src
}

// workRequest is the flow's work request as its poster's host writes it,
// on the QP that faces the other end (a host's QP n talks to endpoint n's
// QP numbered after the host).
func (f Flow) workRequest(now rtlmodel.Time) nic400g.WorkRequest {
	local, peer := f.Src, f.Dst
	if f.Op == nic400g.OpRead {
		local, peer = f.Dst, f.Src
	}
	return nic400g.WorkRequest{QP: uint32(peer), Dst: uint32(peer), DestQP: uint32(local), Op: f.Op, Bytes: f.Bytes, Posted: now}
}

// checkHosts rejects a host list that is too short or repeats a host.
func checkHosts(what string, hosts []int, least int) error {
	if len(hosts) < least {
		return fmt.Errorf("fabric: %s needs at least %d hosts, got %d", what, least, len(hosts))
	}
	seen := make(map[int]bool, len(hosts))
	for _, h := range hosts {
		if h < 0 {
			return fmt.Errorf("fabric: %s: host %d is negative", what, h)
		}
		if seen[h] {
			return fmt.Errorf("fabric: %s: host %d is listed twice", what, h)
		}
		seen[h] = true
	}
	return nil
}

// Incast is N:1: every sender writes bytes to dst at start, the pattern
// the congestion-control rows of FACTS 2 (DCQCN, HPCC, EQDS) are tested on.
func Incast(senders []int, dst int, bytes uint64, start rtlmodel.Time) ([]Flow, error) {
	if err := checkHosts("incast", append([]int{dst}, senders...), 2); err != nil {
		return nil, err
	}
	flows := make([]Flow, len(senders))
	for i, s := range senders {
		flows[i] = Flow{ID: i, Src: s, Dst: dst, Bytes: bytes, Start: start}
	}
	return flows, nil
}

// Permutation sends bytes from every host to another, each host receiving
// exactly one flow and none sending to itself: a derangement drawn
// uniformly (Fisher-Yates, redrawn while it has a fixed point) from the
// RNG stream (seed, "fabric/permutation"). Flow i leaves hosts[i].
func Permutation(hosts []int, bytes uint64, start rtlmodel.Time, seed uint64) ([]Flow, error) {
	if err := checkHosts("permutation", hosts, 2); err != nil {
		return nil, err
	}
	n := len(hosts)
	rng := rtlmodel.NewRNG(seed, "fabric/permutation")
	perm := make([]int, n)
	for fixed := true; fixed; {
		for i := range perm {
			perm[i] = i
		}
		rng.Shuffle(n, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		fixed = false
		for i, p := range perm {
			fixed = fixed || p == i
		}
	}
	flows := make([]Flow, n)
	for i, p := range perm {
		flows[i] = Flow{ID: i, Src: hosts[i], Dst: hosts[p], Bytes: bytes, Start: start}
	}
	return flows, nil
}

// AllToAll sends bytes from every host to every other host at start:
// N(N-1) flows, source-major (flow i·(N-1)+k leaves hosts[i]).
func AllToAll(hosts []int, bytes uint64, start rtlmodel.Time) ([]Flow, error) {
	if err := checkHosts("all-to-all", hosts, 2); err != nil {
		return nil, err
	}
	flows := make([]Flow, 0, len(hosts)*(len(hosts)-1))
	for _, s := range hosts {
		for _, d := range hosts {
			if s != d {
				flows = append(flows, Flow{ID: len(flows), Src: s, Dst: d, Bytes: bytes, Start: start})
			}
		}
	}
	return flows, nil
}

// Combine concatenates workloads into one list: job j's flows get Job j
// and IDs (and After references) shifted past the jobs before it.
func Combine(jobs ...[]Flow) []Flow {
	var out []Flow
	for j, flows := range jobs {
		base := len(out)
		for _, f := range flows {
			f.ID += base
			f.Job = j
			if len(f.After) > 0 {
				after := make([]int, len(f.After))
				for k, a := range f.After {
					after[k] = a + base
				}
				f.After = after
			}
			out = append(out, f)
		}
	}
	return out
}

// ValidateFlows checks a flow list against a fabric of endpoints
// endpoints: flow i has ID i, endpoints in range and distinct, at least
// one byte and at most maxFlowBytes, a known operation, and depends only
// on earlier flows (so the dependencies have no cycle). The error names
// the flow.
func ValidateFlows(flows []Flow, endpoints int) error {
	for i, f := range flows {
		switch {
		case f.ID != i:
			return flowErr(i, "fabric: flow %d has ID %d; IDs must be 0, 1, 2, ... in order", i, f.ID)
		case f.Src < 0 || f.Src >= endpoints || f.Dst < 0 || f.Dst >= endpoints:
			return flowErr(i, "fabric: flow %d from %d to %d: endpoints are 0..%d", i, f.Src, f.Dst, endpoints-1)
		case f.Src == f.Dst:
			return flowErr(i, "fabric: flow %d sends from endpoint %d to itself", i, f.Src)
		case f.Bytes == 0:
			return flowErr(i, "fabric: flow %d has no bytes", i)
		case f.Op > nic400g.OpRead:
			return flowErr(i, "fabric: flow %d: operation %d is none of write, send, read", i, f.Op)
		case f.Bytes > maxFlowBytes:
			return flowErr(i, "fabric: flow %d: %d bytes: at most %d (%s)", i, f.Bytes, uint64(maxFlowBytes), flowBytesBound)
		}
		for _, a := range f.After {
			if a < 0 || a >= i {
				return flowErr(i, "fabric: flow %d waits for flow %d, which is not an earlier flow", i, a)
			}
		}
	}
	return nil
}

// FlowError is a flow that a check of a flow list rejects; Flow is its
// index in the list, so that a reader of a trace can name the flow's line.
type FlowError struct {
	Flow int
	err  error
}

func (e *FlowError) Error() string { return e.err.Error() }

func flowErr(i int, format string, args ...any) error {
	return &FlowError{Flow: i, err: fmt.Errorf(format, args...)}
}

// TotalBytes sums the bytes of the flows.
func TotalBytes(flows []Flow) uint64 {
	var n uint64
	for _, f := range flows {
		n += f.Bytes
	}
	return n
}
