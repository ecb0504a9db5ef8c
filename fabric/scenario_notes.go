package fabric

import (
	"errors"
	"fmt"
	"slices"
)

// dataClass is the traffic class of the NICs' data packets and READ
// responses (nic400g sends them with class 0 in the IP header's top
// bits, and acknowledgements with class 6).
const dataClass = 0

// Notes says, one located line each ("file.yaml:7: ..."), what the
// scenario's settings make of the run that a reader of the file would not
// expect, though nothing in it is wrong: settings that leave a mechanism
// with nothing to do. A scenario that does not validate has none.
func (s *Scenario) Notes() []string {
	var notes []string
	if n := s.unreachableECN(); n != nil {
		notes = append(notes, s.locate(n).Error())
	}
	return notes
}

// ecnDrivenCC are the congestion controls that ECN marks drive.
var ecnDrivenCC = []string{"dcqcn", "dcqcn-fw", "nscc"}

// unreachableECN is a note when the data class is lossy and its marking
// curve, set in the file or read by the NICs' congestion control, starts
// at a depth that no queue of it can reach in the buffer
// (switchasic.TMConfig.LossyQueueCeilingBytes): nothing is ever marked,
// and ECN-driven congestion control sees only drops or trims. The
// switches' default curve, made for the default buffer, meets this when
// switch.buffer_bytes is some 3.2 MB or less.
func (s *Scenario) unreachableECN() error {
	if slices.Contains(s.Switch.PFCClasses, dataClass) {
		return nil // a lossless queue is not held by the dynamic threshold
	}
	if s.Switch.ECN == nil && !slices.Contains(ecnDrivenCC, s.nicConfig(0, 1).CC) {
		return nil // marks nobody asked for and nobody reads
	}
	c, err := s.switchConfig()
	if err != nil {
		return nil
	}
	curve := c.TM.WRED[dataClass]
	if !curve.Enabled {
		return nil
	}
	ceiling, err := c.TM.LossyQueueCeilingBytes(s.largestFrameBytes())
	if err != nil || curve.KminBytes < ceiling {
		return nil
	}
	key := "switch.buffer_bytes"
	if s.Switch.ECN != nil {
		key = "switch.ecn.kmin_bytes"
	}
	seen := "drops"
	if s.Switch.Trimming {
		seen = "drops and trims"
	}
	return keyed(key, errors.New(fmt.Sprint("note: no data packet will be ECN-marked: marking starts at a queue of ",
		curve.KminBytes, " B, but in a buffer of ", c.TM.BufferBytes, " B one queue of the lossy data class holds at most ",
		ceiling, " B (the dynamic threshold's share of the shared pool, and a frame); congestion control sees only ", seen,
		". Set switch.ecn kmin_bytes and kmax_bytes below ", ceiling, " for ECN to mark")))
}
