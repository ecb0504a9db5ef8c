package fabric

import (
	"errors"
	"fmt"
	"slices"
)

// ResultNotes says, one located line each as Notes does, what the run's
// results show that its table does not say outright (res is the run's
// Results). There is one: DCQCN that never cut a rate on a lossless
// fabric that paused, because no packet was ECN-marked: PFC alone held
// the senders back, and the run measured PFC, not DCQCN. DCQCN cuts its
// rate for CNPs alone, and a receiver sends a CNP only for a marked
// packet; the switches' default curve (from 1.6 MB, the HPCC artifact's
// ECN map at 400G, FACTS 2.1) can sit above every queue PFC lets a
// fabric build, as it does in the default scenario.
func (r *Run) ResultNotes(res *Results) []string {
	s := r.Scenario
	cc := s.nicConfig(0, 1).CC
	if cc != "dcqcn" && cc != "dcqcn-fw" {
		return nil
	}
	if res.ECNMarks > 0 || res.PFCFrames == 0 || !slices.Contains(s.Switch.PFCClasses, dataClass) {
		return nil
	}
	c, err := s.switchConfig()
	if err != nil {
		return nil
	}
	curve := c.TM.WRED[dataClass]
	key := "nic.cc"
	if s.Switch.ECN != nil {
		key = "switch.ecn"
	}
	note := fmt.Sprint("note: DCQCN never cut a rate: no packet was ECN-marked, so no receiver sent a CNP, and ",
		res.PFCFrames, " PFC pause frames alone held the senders back")
	if !curve.Enabled {
		return []string{s.locate(keyed(key, errors.New(note+" (the switches mark no packet of the data class: switch.ecn sets a curve)"))).Error()}
	}
	if len(res.HottestQueues) == 0 {
		return []string{s.locate(keyed(key, errors.New(note))).Error()}
	}
	hottest := res.HottestQueues[0] // the deepest sample first
	deepest := slices.Max(hottest.Bytes)
	if deepest >= curve.KminBytes {
		// a queue passed the curve's start and drew no mark, by chance or
		// between samples: nothing certain to say of the curve
		return []string{s.locate(keyed(key, errors.New(note))).Error()}
	}
	return []string{s.locate(keyed(key, errors.New(fmt.Sprint(note, ": the marking curve starts at a queue of ", curve.KminBytes,
		" B, and the deepest egress queue the run sampled (", hottest.Name, ") held ", deepest,
		" B. Set switch.ecn kmin_bytes and kmax_bytes below ", deepest, " for DCQCN to act")))).Error()}
}
