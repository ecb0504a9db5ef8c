package fabric

import (
	"fmt"
	"slices"
)

// perPacketLB are the switch load-balancing modes that may send the
// packets of one flow on different paths; perflow and dlb keep a flow on
// its path between flowlets, and spray hashes the NIC's entropy, which a
// fixed path holds for the whole flow.
var perPacketLB = []string{"roundrobin", "random"}

// checkHPCCOnePath refuses HPCC with per-packet paths. HPCC's sender
// measures each hop's utilisation from the INT record an ACK brings
// against the one the ACK before it brought from the same hop (FACTS 2.2):
// transmitted bytes over the time between them. When a flow's packets
// take different paths, consecutive records of one hop come from
// different switches, whose byte counters have nothing to do with each
// other; the utilisation reads as saturated, the window falls to its
// floor and the flow crawls (a 1 MB permutation on a k=4 fat tree took
// 6.3 ms with sprayed paths against 57 us on fixed ones). HPCC as
// published assumes one path per flow; a multipath form is not modelled.
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
	if slices.Contains(perPacketLB, s.Switch.LB) {
		return keyed("switch.lb", fmt.Errorf("switch.lb %s with nic.cc hpcc: %s; use lb: perflow, spray or dlb", s.Switch.LB, why))
	}
	return nil
}
