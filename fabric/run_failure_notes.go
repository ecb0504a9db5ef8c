package fabric

import (
	"errors"
	"fmt"
	"slices"

	"github.com/fabricmodel/fabricmodel/nic400g"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// queueDrain is an egress queue at its deepest sample and how long its
// port takes to send that many bytes.
type queueDrain struct {
	name  string
	bytes uint64
	gbps  float64 // the port's rate, with the lanes its wire has
	drain rtlmodel.Time
}

// slowestDrain finds, over the run's queue samples, the egress queue
// whose deepest sample takes its port the longest to send: the longest
// time a packet waited in one queue, as far as the samples show (they are
// taken between steps, so the true peak may be deeper). A port counts at
// its wire's rate, a degraded uplink's with its failed lanes left out.
// ok is false when no sample held a byte.
func (r *Run) slowestDrain() (q queueDrain, ok bool) {
	samples := r.samples.kept
	if len(samples) == 0 {
		return q, false
	}
	i := 0
	for _, sw := range r.Cluster.Switches() {
		for p := range sw.Ports() {
			peak := uint64(0)
			for _, s := range samples {
				peak = max(peak, s.bytes[i])
			}
			i++
			if peak == 0 {
				continue
			}
			bps := sw.TxPhy(p).Wire().Lanes().MACRate().BitsPerSecond().Float64()
			drain := rtlmodel.Time(float64(peak) * 8 / bps * float64(rtlmodel.Second))
			if drain > q.drain {
				q = queueDrain{name: fmt.Sprintf("%s/port%d", swName(sw), p), bytes: peak, gbps: bps / 1e9, drain: drain}
				ok = true
			}
		}
	}
	return q, ok
}

// FailureNotes says, one located line each as Notes does, what the run's
// own state shows of why its flows failed (res is the run's Results):
// for flows that ran out of retries, whether a queue held packets longer
// than the retransmission timeout, so that QPs timed out on packets
// still on their way, or none did, so that what the timeouts waited for
// was lost or never sent. None when no flow ran out of retries.
func (r *Run) FailureNotes(res *Results) []string {
	retried := 0
	for _, f := range res.Failed {
		if f.Status == nic400g.StatusRetryExceeded.String() {
			retried++
		}
	}
	if retried == 0 {
		return nil
	}
	s := r.Scenario
	rto := s.nicConfig(0, 1).RTO
	queue := "no sample found a byte queued"
	q, ok := r.slowestDrain()
	if ok {
		queue = fmt.Sprintf("the egress queue %s held %.3f MB at its deepest sample, %.1f us of its %.0f Gb/s",
			q.name, float64(q.bytes)/1e6, q.drain.Nanoseconds()/1e3, q.gbps)
	}
	var note error
	if q.drain >= rto {
		bound := fmt.Sprintf("raise nic.rto_us above %.0f", q.drain.Nanoseconds()/1e3)
		if !slices.Contains(s.Switch.PFCClasses, dataClass) {
			bound += ", or hold the lossy queues shorter (switch.buffer_bytes, switch.alpha)"
		}
		twice := ""
		if res.DuplicatesReceived > 0 {
			twice = fmt.Sprint(" (", res.DuplicatesReceived, " data packets were received twice)")
		}
		note = keyed("nic.rto_us", errors.New(fmt.Sprint("note: ", retried, " flow(s) ran out of retries, and ", queue,
			": longer than the ", rto.Nanoseconds()/1e3, " us retransmission timeout, so QPs timed out on packets still queued",
			twice, "; ", bound)))
	} else {
		c := sumCounters(r.Cluster.Engine, "/mmu/dropped", "/drop_bad_fcs", "/rx_fcs_drops", "/rx_icrc_drops")
		full, corrupt := c["/mmu/dropped"], c["/drop_bad_fcs"]+c["/rx_fcs_drops"]+c["/rx_icrc_drops"]
		lost := fmt.Sprint("note: ", retried, " flow(s) ran out of retries, and no queue held packets as long as the ",
			rto.Nanoseconds()/1e3, " us retransmission timeout (", queue, "): what the timeouts waited for was lost or not sent (",
			full, " packets the switches dropped for want of buffer, ", corrupt, " frames corrupted on the wire)")
		if full > 0 && !s.Switch.Trimming && !slices.Contains(s.Switch.PFCClasses, dataClass) {
			// a trimmed packet reaches its receiver, which NACKs it: the
			// sender resends at once instead of timing out
			note = keyed("switch.trimming", errors.New(lost+"; switch.trimming: true turns such a drop into a NACK, which resends without a timeout"))
		} else {
			note = errors.New(lost)
		}
	}
	return []string{s.locate(note).Error()}
}
