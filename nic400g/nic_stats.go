package nic400g

import "github.com/fabricmodel/fabricmodel/rtlmodel"

// nicStats are a NIC's counters, registered under its path.
type nicStats struct {
	posted, txData, txBytes, retransmits, timeouts, txMessages *rtlmodel.Counter
	rxData, rxBytes, rxMessages, rxOOO, rxDup, rxOutOfWindow   *rtlmodel.Counter
	rxOOODrop, reorderDrops, rxTrimmed, rxCE, fcsDrops         *rtlmodel.Counter
	acks, ackImmediate, naks, cnpSent, cnpRecv, nakRecv        *rtlmodel.Counter
	trimNakRecv, sackRetx, staleAcks, pfcRecv, badQP           *rtlmodel.Counter
	cqeOverflow, icrcDrops, pulls, pullRecv, stalePulls        *rtlmodel.Counter
	readReqs, rxReadReqs, readResps, readReissues              *rtlmodel.Counter
	qpFailures, flushed                                        *rtlmodel.Counter
	oneWay                                                     *rtlmodel.Histogram
}

func (s *nicStats) register(r *rtlmodel.Registry, p string) {
	c := func(name, unit, doc string) *rtlmodel.Counter { return r.Counter(p+"/"+name, unit, doc) }
	s.posted = c("wr_posted", "messages", "work requests posted")
	s.txData = c("tx_data", "packets", "data packets sent, retransmissions included")
	s.txBytes = c("tx_payload", "bytes", "payload bytes sent, retransmissions included")
	s.retransmits = c("retransmits", "packets", "data packets sent again")
	s.timeouts = c("timeouts", "events", "retransmission timeouts")
	s.txMessages = c("tx_completions", "messages", "messages acknowledged and completed")
	s.rxData = c("rx_data", "packets", "data packets received")
	s.rxBytes = c("rx_payload", "bytes", "payload delivered in order")
	s.rxMessages = c("rx_completions", "messages", "messages completed at the responder")
	s.rxOOO = c("rx_out_of_order", "packets", "data packets accepted out of order")
	s.rxDup = c("rx_duplicate", "packets", "duplicate data packets")
	s.rxOutOfWindow = c("rx_out_of_window", "packets", "data packets beyond the PSN window")
	s.rxOOODrop = c("rx_ooo_dropped", "packets", "out-of-order packets dropped by go-back-N")
	s.reorderDrops = c("reorder_full_drops", "packets", "packets dropped for a full reorder buffer (stalls)")
	s.rxTrimmed = c("rx_trimmed", "packets", "trimmed headers received")
	s.rxCE = c("rx_ce", "packets", "CE-marked data packets")
	s.fcsDrops = c("rx_fcs_drops", "frames", "frames dropped for a bad FCS")
	s.acks = c("acks_sent", "frames", "ACKs sent")
	s.ackImmediate = c("acks_immediate", "frames", "ACKs sent at once for out-of-order or duplicate data")
	s.naks = c("naks_sent", "frames", "NAKs and trim NACKs sent")
	s.cnpSent = c("cnp_sent", "frames", "CNPs sent")
	s.cnpRecv = c("cnp_received", "frames", "CNPs received")
	s.nakRecv = c("nak_received", "frames", "sequence-error NAKs received")
	s.trimNakRecv = c("trim_nack_received", "frames", "trim NACKs received")
	s.sackRetx = c("sack_retransmits", "packets", "holes queued for resending from SACK")
	s.staleAcks = c("stale_acks", "frames", "ACKs for a QP with nothing outstanding")
	s.pfcRecv = c("pfc_received", "frames", "PFC frames obeyed")
	s.badQP = c("bad_qp", "requests", "work requests for a QP beyond the configured count")
	s.cqeOverflow = c("cqe_overflow", "completions", "completions the driver link could not take in their cycle")
	s.icrcDrops = c("rx_icrc_drops", "frames", "frames dropped for an ICRC mismatch")
	s.pulls = c("pulls_sent", "frames", "EQDS pulls (credit grants) sent")
	s.pullRecv = c("pulls_received", "frames", "EQDS pulls received")
	s.stalePulls = c("pulls_stale", "grants", "EQDS grants for a QP no longer active, not sent")
	s.readReqs = c("read_requests", "packets", "RDMA READ requests sent, re-issues included")
	s.rxReadReqs = c("rx_read_requests", "packets", "RDMA READ requests received")
	s.readResps = c("read_responses", "packets", "READ response packets sent")
	s.readReissues = c("read_reissues", "packets", "reads issued again from the first missing response")
	s.qpFailures = c("qp_retry_exceeded", "QPs", "QPs failed after Config.RetryCount timeouts in a row without progress")
	s.flushed = c("wr_flushed", "messages", "work requests completed with an error by a failed QP")
	s.oneWay = r.Histogram(p+"/one_way_latency", "ps", "doorbell written to responder CQE visible")
}
