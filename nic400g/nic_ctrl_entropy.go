package nic400g

// ctrlEntropy is the entropy value of q's control frames (ACKs, NACKs,
// pulls, CNPs): the UDP source port a switch hashes to spread them over
// paths (FACTS 7, "Spraying entropy").
//
// Under EQDS it is the QP pair's flow entropy, the one a fixed path gives
// its data (NewRoCEv2FixedPath, symmetric in the two QPNs): each QP pair's
// pulls, NACKs and ACKs take a path of their own, as each flow's do in
// htsim (S [R19]: a sink's ACKs and NACKs carry a data packet's path id,
// its pulls follow the flow's route back). With one value for every QP,
// an entropy-hashing fabric (lb: spray) sends all of a leaf's control
// frames up one uplink, whose strict-priority control class then starves
// the data queued there: every packet of the flows on that uplink is
// trimmed, NACKed and pulled again, and the flows run out of retries.
//
// Other QPs keep entropy 0 for their control frames, one path for all of
// a NIC's; their experiments' results are pinned on it (E: a RoCEv2
// responder uses its QP's UDP source port, FACTS 1.1).
func (n *NIC) ctrlEntropy(q *qpState) uint16 {
	if n.pacer == nil {
		return 0
	}
	return RoCEv2SourcePort(RoCEv2FlowLabel(q.id, q.peerQP))
}
