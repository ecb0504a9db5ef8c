package nic400g

// ctrlEntropy is the entropy value of q's control frames (ACKs, NAKs,
// trim NACKs, pulls, CNPs): the UDP source port a switch hashes to spread
// them over paths (FACTS 7, "Spraying entropy"). It is the QP pair's flow
// entropy, the value a fixed path gives its data (NewRoCEv2FixedPath):
// a RoCEv2 NIC sends every packet of a QP, its responder's ACKs included,
// from the UDP source port folded from the QP pair's flow label, a hash
// symmetric in the two QPNs, so both directions of a connection carry one
// value (FACTS 1.1, "RoCEv2 UDP source port" [R7]); under EQDS each QP
// pair's pulls, NACKs and ACKs take a path of their own, as each flow's
// do in htsim (S [R19]: a sink's ACKs and NACKs carry a data packet's
// path id, its pulls follow the flow's route back).
//
// With one value for every QP, an entropy-hashing fabric (lb: spray)
// sends all of a leaf's control frames up one uplink, whose
// strict-priority control class then starves the data queued there.
func (n *NIC) ctrlEntropy(q *qpState) uint16 {
	return RoCEv2SourcePort(RoCEv2FlowLabel(q.id, q.peerQP))
}
