package fabric

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// FailedFlow is a flow whose QP failed: its NIC timed out more times in a
// row than the QP's retry count allows (nic400g.Config.RetryCount) and
// completed its work request with an error.
type FailedFlow struct {
	FlowRun
	FailedNS float64 `json:"failed_ns"` // when the error completion became visible
	Status   string  `json:"status"`
}

// FlowsFailedError reports the flows that failed in a run; the flows that
// waited for one of them (collective steps) never started.
type FlowsFailedError struct {
	Failed  []FailedFlow
	Waiting int // flows that never started for want of a failed one
}

func (e *FlowsFailedError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d flow(s) failed", len(e.Failed))
	for i, f := range e.Failed {
		if i == 3 {
			fmt.Fprintf(&b, "; and %d more", len(e.Failed)-i)
			break
		}
		fmt.Fprintf(&b, "; flow %d (host %d to host %d, %d bytes) at %.3f us: %s", f.ID, f.Src, f.Dst, f.Bytes, f.FailedNS/1e3, f.Status)
	}
	if e.Waiting > 0 {
		fmt.Fprintf(&b, "; %d flow(s) waiting for them never started", e.Waiting)
	}
	return b.String()
}

// Failures returns the flows that have failed so far, in the order they
// failed.
func (r *Run) Failures() []FailedFlow {
	var out []FailedFlow
	for i := range r.Flows {
		st := r.sched.st[i]
		if st.failedAt == 0 {
			continue
		}
		out = append(out, FailedFlow{FlowRun: r.flowRun(i), FailedNS: st.failedAt.Nanoseconds(), Status: st.failed.String()})
	}
	slices.SortStableFunc(out, func(a, b FailedFlow) int { return cmp.Compare(a.FailedNS, b.FailedNS) })
	return out
}

// failures is a *FlowsFailedError for the flows failed so far, or nil;
// quiet: the fabric has nothing left to do, so the flows not started
// wait for a failed one.
func (r *Run) failures(quiet bool) error {
	failed := r.Failures()
	if len(failed) == 0 {
		return nil
	}
	err := &FlowsFailedError{Failed: failed}
	for i := range r.Flows {
		if st := r.sched.st[i]; quiet && !st.started {
			err.Waiting++
		}
	}
	return err
}
