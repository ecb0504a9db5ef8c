package fabric

import (
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/fabricmodel/fabricmodel/nic400g"
)

// ResultNotes says, one located line each as Notes does, what the run's
// results show that its table does not say outright (res is the run's
// Results): DCQCN that never cut a rate (idleDCQCN), and a trim storm
// under a congestion control that ignores loss (trimStorm).
func (r *Run) ResultNotes(res *Results) []string {
	var notes []string
	for _, n := range []string{r.idleDCQCN(res), r.trimStorm(res)} {
		if n != "" {
			notes = append(notes, n)
		}
	}
	return notes
}

// trimStorm is a note when the switches trimmed more packets than the
// NICs placed and the NICs' congestion control ignores loss
// (nic400g.IgnoresLoss): each trimmed packet is resent at once at the
// rate that overflowed the queue, and trimmed again.
func (r *Run) trimStorm(res *Results) string {
	s := r.Scenario
	cc := s.nicConfig(0, 1).CC
	if !s.Switch.Trimming || !nic400g.IgnoresLoss(cc) || res.DataPackets == 0 || res.Trims <= res.DataPackets {
		return ""
	}
	heard := map[string]string{"none": "no congestion control runs", "dcqcn": "DCQCN slows down for CNPs alone",
		"dcqcn-fw": "DCQCN slows down for CNPs alone", "hpcc": "HPCC slows down for its hops' telemetry alone",
		"timely": "TIMELY slows down for round-trip times alone"}[cc]
	lost := ""
	if d := sumCounters(r.Cluster.Engine, "/mmu/trimmed_dropped")["/mmu/trimmed_dropped"]; d > 0 {
		lost = fmt.Sprint(", and ", d, " trimmed headers found no room in their queue and were dropped")
	}
	return s.locate(keyed("nic.cc", errors.New(fmt.Sprint("note: the switches trimmed ", res.Trims, " packets, ",
		strconv.FormatFloat(float64(res.Trims)/float64(res.DataPackets), 'f', 1, 64), " for each of the ", res.DataPackets,
		" packets placed", lost, ": ", heard, ", so each trimmed packet is resent at once, at the rate that overflowed the queue, ",
		"and trimmed again. nic.cc swift or nscc slows down for trims; eqds sends what its receivers pull")))).Error()
}

// idleDCQCN is a note when DCQCN never cut a rate on a lossless fabric
// that paused, because no packet was ECN-marked: PFC alone held the
// senders back, and the run measured PFC, not DCQCN. DCQCN cuts its rate
// for CNPs alone, and a receiver sends a CNP only for a marked packet;
// the switches' default curve (from 1.6 MB, the HPCC artifact's ECN map
// at 400G, FACTS 2.1) can sit above every queue PFC lets a fabric build,
// as it does in the default scenario.
func (r *Run) idleDCQCN(res *Results) string {
	s := r.Scenario
	if !nic400g.ReadsCNPs(s.nicConfig(0, 1).CC) {
		return ""
	}
	if res.ECNMarks > 0 || res.PFCFrames == 0 || !slices.Contains(s.Switch.PFCClasses, dataClass) {
		return ""
	}
	c, err := s.switchConfig()
	if err != nil {
		return ""
	}
	curve := c.TM.WRED[dataClass]
	if !curve.Enabled {
		return "" // switch.ecn.off: the scenario's own note says so (ecnOffUnderDCQCN)
	}
	key := "nic.cc"
	if s.Switch.ECN != nil {
		key = "switch.ecn"
	}
	note := fmt.Sprint("note: DCQCN never cut a rate: no packet was ECN-marked, so no receiver sent a CNP, and ",
		res.PFCFrames, " PFC pause frames alone held the senders back")
	if len(res.HottestQueues) == 0 {
		return s.locate(keyed(key, errors.New(note))).Error()
	}
	hottest := res.HottestQueues[0] // the deepest sample first
	deepest := slices.Max(hottest.Bytes)
	if deepest >= curve.KminBytes {
		// a queue passed the curve's start and drew no mark, by chance or
		// between samples: nothing certain to say of the curve
		return s.locate(keyed(key, errors.New(note))).Error()
	}
	return s.locate(keyed(key, errors.New(fmt.Sprint(note, ": the marking curve starts at a queue of ", curve.KminBytes,
		" B, and the deepest egress queue the run sampled (", hottest.Name, ") held ", deepest,
		" B. Set switch.ecn kmin_bytes and kmax_bytes below ", deepest, " for DCQCN to act")))).Error()
}
