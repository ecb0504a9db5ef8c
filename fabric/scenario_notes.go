package fabric

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/fabricmodel/fabricmodel/nic400g"
)

// dataClass is the traffic class of the NICs' data packets and READ
// responses (nic400g sends them with class 0 in the IP header's top
// bits, and acknowledgements with class 6).
const dataClass = 0

// Notes says, one located line each ("file.yaml:7: ..."), what the
// scenario's settings make of the run that a reader of the file would not
// expect, though nothing in it is wrong: settings that leave a mechanism
// nothing to do, or that work against each other. A scenario that does
// not validate has none.
func (s *Scenario) Notes() []string {
	if s.Validate() != nil {
		return nil
	}
	var notes []string
	for _, n := range []error{s.unreachableECN(), s.ecnOffUnderDCQCN(), s.lossyQueueKeysOnLosslessData(), s.goBackNWithReordering(), s.readsOverReordering(), s.singlePathReorderTolerance(), s.trimCutsThePSN()} {
		if n != nil {
			notes = append(notes, s.locate(n).Error())
		}
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
	// the switch with the fewest ports reserves the least headroom and
	// lets a queue grow the most; the note holds when even it cannot mark
	ceiling, err := withPorts(c.TM, s.switchPortCounts()[0]).LossyQueueCeilingBytes(s.largestFrameBytes())
	if err != nil || curve.KminBytes < ceiling {
		return nil
	}
	key := "switch.buffer_bytes"
	if s.Switch.ECN != nil {
		key = "switch.ecn.kmin_bytes"
	}
	return keyed(key, errors.New(fmt.Sprint("note: no data packet will be ECN-marked: marking starts at a queue of ",
		curve.KminBytes, " B, but in a buffer of ", c.TM.BufferBytes, " B one queue of the lossy data class holds at most ",
		ceiling, " B (the dynamic threshold's share of the shared pool, and a frame); ", s.withoutMarks(),
		". Set switch.ecn kmin_bytes and kmax_bytes below ", ceiling, " for ECN to mark")))
}

// withoutMarks says what the NICs' congestion control makes of a lossy
// fabric that marks nothing.
func (s *Scenario) withoutMarks() string {
	switch cc := s.nicConfig(0, 1).CC; {
	case nic400g.ReadsCNPs(cc):
		return dcqcnUnmarked + s.unslowedDCQCN()
	case s.Switch.Trimming:
		return "congestion control sees only drops and trims"
	default:
		return "congestion control sees only drops"
	}
}

// dcqcnUnmarked says why DCQCN does nothing where nothing is marked: it
// cuts its rate for CNPs alone, which only marks draw (its OnLoss does
// nothing, nic400g.IgnoresLoss).
const dcqcnUnmarked = "DCQCN cuts its rate only for the CNPs that marks draw, so its senders never slow down: "

// unslowedDCQCN says what becomes of the packets of DCQCN senders that
// never slow down: on a lossless data class PFC holds them back; on a
// trimming fabric each trimmed packet is resent at once at the rate that
// overflowed the queue; otherwise it is dropped.
func (s *Scenario) unslowedDCQCN() string {
	switch {
	case slices.Contains(s.Switch.PFCClasses, dataClass):
		return "PFC pause frames alone hold them back"
	case s.Switch.Trimming:
		return "each packet the buffer cannot hold is trimmed and resent at once, at the rate that overflowed it"
	default:
		return "each packet the buffer cannot hold is dropped, to be found by a NAK or a timeout"
	}
}

// ecnOffUnderDCQCN is a note when switch.ecn.off turns marking off and
// the NICs run DCQCN, which then never cuts its rate.
func (s *Scenario) ecnOffUnderDCQCN() error {
	if s.Switch.ECN == nil || !s.Switch.ECN.Off {
		return nil
	}
	if !nic400g.ReadsCNPs(s.nicConfig(0, 1).CC) {
		return nil
	}
	return keyed("switch.ecn.off", errors.New("note: the switches mark no packet, and "+dcqcnUnmarked+s.unslowedDCQCN()))
}

// lossyQueueKeysOnLosslessData is a note when switch.alpha or
// switch.queue_reserve_bytes is set and the data class is lossless:
// both hold only the lossy queues (switchasic.TrafficManager), so they
// govern the acknowledgements' class and trimmed headers, not the data.
func (s *Scenario) lossyQueueKeysOnLosslessData() error {
	if !slices.Contains(s.Switch.PFCClasses, dataClass) {
		return nil
	}
	var keys []string
	if s.Switch.Alpha != nil {
		keys = append(keys, "switch.alpha")
	}
	if s.Switch.QueueReserveBytes > 0 {
		keys = append(keys, "switch.queue_reserve_bytes")
	}
	if len(keys) == 0 {
		return nil
	}
	return keyed(keys[0], fmt.Errorf("note: %s hold only the lossy queues, and the data class %d is lossless (switch.pfc_classes): they govern the acknowledgements' queues and trimmed headers', not the data's",
		strings.Join(keys, " and "), dataClass))
}

// perPacketPaths says what in the scenario sends one flow's packets on
// different paths packet by packet ("" when nothing does): the NICs'
// spraying, or a switch that balances each packet.
func (s *Scenario) perPacketPaths() string {
	switch c := s.nicConfig(0, 1); {
	case c.Paths == "spray" || c.Paths == "pathaware":
		return "nic.paths " + c.Paths
	case slices.Contains(perPacketLB, s.Switch.LB):
		return "switch.lb " + s.Switch.LB
	}
	return ""
}

// Notes says what Scenario.Notes says, and what only the flows tell: the
// notes on the operations a trace names in its op column (workload kind
// csv), located at workload.file.
func (r *Run) Notes() []string {
	notes := r.Scenario.Notes()
	if r.Scenario.Workload.Kind != "csv" {
		return notes
	}
	reads := 0
	for _, f := range r.Flows {
		if f.Op == nic400g.OpRead {
			reads++
		}
	}
	if reads == 0 || r.Scenario.NIC.OOOReads {
		return notes
	}
	if by := r.Scenario.perPacketPaths(); by != "" {
		n := keyed("workload.file", fmt.Errorf("note: %d of the trace's flows are RDMA READs, whose requester takes the responses in PSN order and issues the read again from the first one missing, and %s"+
			" spreads the responses over paths whose delays differ: expect responses dropped at the NICs and reads re-issued (read_reissues); nic.ooo_reads: true places them out of order", reads, by))
		notes = append(notes, r.Scenario.locate(n).Error())
	}
	return notes
}

// readsOverReordering is a note when the workload's flows are RDMA READs
// and paths are chosen packet by packet. The requester takes READ
// responses in PSN order and issues the read again from the first one
// missing (nic400g), so responses that overtake one another are dropped
// and fetched again. A 256 KB permutation of reads on 2 leaves of 4 hosts
// and 2 spines (seed 3, DCQCN, lossless, nic.paths spray) ended at
// 99.09 us with 1,539 responses dropped and 99 reads re-issued, where
// its writes ended at 15.25 us.
func (s *Scenario) readsOverReordering() error {
	if op, err := s.Workload.op(); err != nil || op != nic400g.OpRead || s.NIC.OOOReads {
		return nil
	}
	if by := s.perPacketPaths(); by != "" {
		return keyed("workload.op", errors.New("note: a READ requester takes its responses in PSN order and issues the read again from the first one missing, and "+by+
			" spreads the responses over paths whose delays differ: expect responses dropped at the NICs and reads re-issued (read_reissues); nic.ooo_reads: true places them out of order"))
	}
	return nil
}

// goBackNWithReordering is a note when go-back-N receivers meet paths
// chosen packet by packet, or trimming. A go-back-N receiver discards
// every data packet that arrives out of order and NAKs for the one it
// waits for; sprayed paths of unequal delay deliver out of order, and a
// trimmed packet leaves a hole that the packets behind it arrive past:
// the NICs drop and the senders resend. Two runs (fabricmodel run):
//   - a 4 MB halving-doubling all-reduce on 4 leaves of 8 hosts and 2
//     spines (seed 7, mtu 1024, switch.lb random, nic.paths pathaware,
//     lossy) had no flow of 320 done at 20 ms under TIMELY; under DCQCN
//     it ended at 8,160 us with 645,115 NIC drops, against 1,158 us on
//     fixed paths with per-flow ECMP;
//   - a Swift background mix at 60 % load on a k=4 trimming fat tree
//     (seed 5, fixed paths, mtu 1024, 4 MB buffers) dropped 10,245
//     packets at the NICs, and 8 of its 185 flows failed.
//
// Selective repeat keeps what arrives early.
func (s *Scenario) goBackNWithReordering() error {
	if s.nicConfig(0, 1).Recovery != nic400g.GoBackN {
		return nil
	}
	if by := s.perPacketPaths(); by != "" {
		return keyed("nic.recovery", errors.New("note: a go-back-N receiver discards every data packet that arrives out of order, and "+by+
			" spreads a flow's packets over paths whose delays differ: expect drops at the NICs and resends; recovery: sr keeps what arrives early"))
	}
	if s.Switch.Trimming {
		return keyed("nic.recovery", errors.New("note: a go-back-N receiver discards every data packet behind one that switch.trimming cut "+
			"until its resend arrives: expect drops at the NICs and resends; recovery: sr keeps them"))
	}
	return nil
}

// singlePathReorderTolerance is a note when selective repeat keeps the
// single-path reorder tolerance (nic400g.Config.ReorderTolerance, 3 by
// default, as TCP's duplicate ACKs) over paths chosen packet by packet:
// a packet three later ones overtook is resent though it was only late,
// and is received twice. On a k=4 fat tree a sprayed DCQCN permutation
// of 1 MB flows resent 1,248 of its 4,096 packets, every one received
// twice, and ended at 63.15 us; with reorder_tolerance 16, 286 and
// 51.44 us; with 64 (as docs/scenarios/exp4_*.yaml set), none and
// 50.89 us.
func (s *Scenario) singlePathReorderTolerance() error {
	c := s.nicConfig(0, 1)
	if c.Recovery != nic400g.SelectiveRepeat || c.ReorderTolerance > nic400g.DefaultConfig(0).ReorderTolerance {
		return nil
	}
	by := s.perPacketPaths()
	if by == "" {
		return nil
	}
	return keyed("nic.reorder_tolerance", fmt.Errorf("note: selective repeat takes a packet as lost once %d later ones are acknowledged, "+
		"and %s lets later packets overtake it on a faster path: expect needless resends (the results' packets received twice); "+
		"nic.reorder_tolerance near the packets in flight on a path (64, say) waits for them", c.ReorderTolerance, by))
}
