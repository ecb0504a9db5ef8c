package fabric

import (
	"fmt"
	"slices"
)

// perPacketLB are the switch load-balancing modes that send each packet
// of a flow its own way; dlb moves a flow at each flowlet, after an idle
// gap; perflow hashes the 5-tuple and spray the NIC's entropy, which a
// fixed path holds for the whole flow.
var perPacketLB = []string{"roundrobin", "random"}

// checkHPCCOnePath refuses HPCC with per-packet paths. HPCC's sender
// measures each hop's utilisation from the INT record an ACK brings
// against the one the ACK before it brought from the same hop (FACTS 2.2):
// transmitted bytes over the time between them. When a flow's packets
// take different paths, consecutive records of one hop come from
// different switches, whose byte counters have nothing to do with each
// other; the utilisation reads as saturated, the window falls to its
// floor and the flow crawls. Measured with fabricmodel run before these
// combinations were refused: a 1 MB permutation on a lossless k=4 fat
// tree (seed 1) took 6,335 us with nic.paths spray against 56.5 us on
// fixed paths; a 4 MB ring all-reduce on the same fabric (seed 3, mtu
// 1024, 16 MB buffers) under DLB, whose flowlets move at each step's gap,
// had 216 of 480 flows done at 20 ms against 418 us with per-flow ECMP.
// HPCC as published assumes one path per flow; a multipath form is not
// modelled.
func (s *Scenario) checkHPCCOnePath() error {
	c := s.nicConfig(0, 1)
	if c.CC != "hpcc" {
		return nil
	}
	const why = "HPCC compares each hop's INT record with the one the previous ACK brought from that hop, " +
		"so it needs each flow on one path (a flow on several would compare counters of different switches)"
	if c.Paths != "" && c.Paths != "fixed" {
		return keyed("nic.paths", fmt.Errorf("nic.paths %s with nic.cc hpcc: %s; use paths: fixed", c.Paths, why))
	}
	if slices.Contains(perPacketLB, s.Switch.LB) || s.Switch.LB == "dlb" {
		return keyed("switch.lb", fmt.Errorf("switch.lb %s with nic.cc hpcc: %s; use lb: perflow or spray", s.Switch.LB, why))
	}
	return nil
}
