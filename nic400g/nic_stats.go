package nic400g

import (
	"unsafe"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// nicStats are a NIC's counters, registered under its path.
type nicStats struct {
	// the counters nearly every packet moves come first, in the block's
	// first two lines (nicHotStats); the counters are inside the block,
	// not objects of their own (Registry.Own)
	txData, txBytes, rxData, rxBytes rtlmodel.Counter
	rxPlaced, acks, rxCE, cnpSent    rtlmodel.Counter

	posted, retransmits, timeouts, txMessages           rtlmodel.Counter
	rxMessages, rxOOO, rxDup, rxOutOfWindow             rtlmodel.Counter
	rxOOODrop, reorderDrops, rxTrimmed, fcsDrops        rtlmodel.Counter
	ackImmediate, naks, nakRecv                         rtlmodel.Counter
	trimNakRecv, sackRetx, staleAcks, pfcRecv, badQP    rtlmodel.Counter
	cqeOverflow, icrcDrops, pulls, pullRecv, stalePulls rtlmodel.Counter
	readReqs, rxReadReqs, readResps, readReissues       rtlmodel.Counter
	qpFailures, flushed, intAcks, intHops               rtlmodel.Counter
	lengthErrors, staleJobs, earlyReads                 rtlmodel.Counter
	rxReissues, rspTimeouts, readRanges, rxReadRanges   rtlmodel.Counter
	nacksCoalesced, trimUnreadable, cnpRecv, notMine    rtlmodel.Counter
	ctrlWaiting                                         rtlmodel.Gauge     // control frames queued, not yet sent
	paused                                              rtlmodel.TimeMeter // the transmitter paused by PFC
	oneWay                                              *rtlmodel.Histogram
}

// nicHotStats is the length of the counters nearly every packet moves.
const nicHotStats = unsafe.Offsetof(nicStats{}.posted)

func (s *nicStats) register(r *rtlmodel.Registry, p string) {
	own := func(c *rtlmodel.Counter, name, unit, doc string) { r.Own(c, p+"/"+name, unit, doc) }
	own(&s.posted, "wr_posted", "messages", "work requests posted")
	own(&s.txData, "tx_data", "packets", "data packets sent, retransmissions included")
	own(&s.txBytes, "tx_payload", "bytes", "payload bytes sent, retransmissions included")
	own(&s.retransmits, "retransmits", "packets", "data packets sent again")
	own(&s.timeouts, "timeouts", "events", "retransmission timeouts")
	own(&s.txMessages, "tx_completions", "messages", "messages acknowledged and completed")
	own(&s.rxData, "rx_data", "packets", "data packets and READ responses received, trimmed headers, duplicates and packets dropped on arrival among them")
	own(&s.rxBytes, "rx_payload", "bytes", "payload delivered in order")
	own(&s.rxPlaced, "rx_placed", "packets", "data packets placed in memory, each once: WRITE and SEND packets taken in order or held out of order, and READ responses placed (no trimmed header, duplicate or dropped packet)")
	own(&s.rxMessages, "rx_completions", "messages", "messages completed at the responder")
	own(&s.rxOOO, "rx_out_of_order", "packets", "data packets accepted out of order")
	own(&s.rxDup, "rx_duplicate", "packets", "duplicate data packets")
	own(&s.rxOutOfWindow, "rx_out_of_window", "packets", "data packets beyond the PSN window")
	own(&s.rxOOODrop, "rx_ooo_dropped", "packets", "out-of-order packets dropped by go-back-N")
	own(&s.reorderDrops, "reorder_full_drops", "packets", "packets without an address dropped beyond the reorder buffer, more than its slots past the expected PSN (a NAK names the hole, once, unless under EQDS)")
	own(&s.rxTrimmed, "rx_trimmed", "packets", "trimmed headers received")
	own(&s.trimUnreadable, "rx_trim_unreadable", "packets", "trimmed headers dropped: cut before the end of the header that holds their PSN, they no longer say which packet they were")
	own(&s.rxCE, "rx_ce", "packets", "CE-marked data packets")
	own(&s.fcsDrops, "rx_fcs_drops", "frames", "frames dropped for a bad FCS")
	own(&s.acks, "acks_sent", "frames", "ACKs sent")
	own(&s.ackImmediate, "acks_immediate", "frames", "ACKs sent at once for out-of-order or duplicate data")
	own(&s.naks, "naks_sent", "frames", "NAKs and trim NACKs sent")
	r.OwnGauge(&s.ctrlWaiting, p+"/ctrl_waiting", "frames", "ACKs, NAKs and CNPs queued to send, ahead of data; its maximum is the deepest backlog")
	own(&s.nacksCoalesced, "nacks_coalesced", "packets", "trimmed headers a go-back-N receiver sent no NACK for: one it queued for the same or an earlier PSN had not left yet")
	own(&s.cnpSent, "cnp_sent", "frames", "CNPs sent")
	own(&s.cnpRecv, "cnp_received", "frames", "CNPs received")
	own(&s.nakRecv, "nak_received", "frames", "sequence-error NAKs received")
	own(&s.trimNakRecv, "trim_nack_received", "frames", "trim NACKs received")
	own(&s.sackRetx, "sack_retransmits", "packets", "holes queued for resending from SACK")
	own(&s.staleAcks, "stale_acks", "frames", "ACKs for a QP with nothing outstanding")
	own(&s.pfcRecv, "pfc_received", "frames", "PFC frames obeyed")
	own(s.paused.Counter(), "tx_paused", "ps", "time the transmitter was paused by the PFC frames it received (FACTS 2.7), counted up to the last PFC frame or settle")
	own(&s.intAcks, "int_acks", "frames", "acknowledgements whose echoed HPCC INT stack went to congestion control")
	own(&s.intHops, "int_hops", "records", "hop records in those INT stacks")
	own(&s.badQP, "bad_qp", "events", "work requests and received frames for a QP beyond the configured count, dropped")
	own(&s.cqeOverflow, "cqe_overflow", "completions", "completions the driver link could not take in their cycle")
	own(&s.icrcDrops, "rx_icrc_drops", "frames", "frames dropped for an ICRC mismatch")
	own(&s.notMine, "rx_not_mine", "frames", "frames addressed to another MAC, dropped by the MAC's address filter")
	own(&s.pulls, "pulls_sent", "frames", "EQDS pulls (credit grants) sent")
	own(&s.pullRecv, "pulls_received", "frames", "EQDS pulls received")
	own(&s.stalePulls, "pulls_stale", "grants", "EQDS grants for a QP no longer active, not sent")
	own(&s.readReqs, "read_requests", "packets", "RDMA READ requests sent, re-issues included")
	own(&s.rxReadReqs, "rx_read_requests", "packets", "RDMA READ requests received")
	own(&s.readResps, "read_responses", "packets", "READ response packets sent")
	own(&s.readReissues, "read_reissues", "packets", "reads issued again from the first missing response")
	own(&s.readRanges, "read_range_requests", "packets", "READ requests for responses a switch trimmed or the requester dropped beyond its window, a range each (Config.OOOReads)")
	own(&s.rxReadRanges, "rx_read_range_requests", "packets", "READ requests for part of a read that the responder served beside the jobs it runs")
	own(&s.earlyReads, "rx_read_requests_early", "packets", "read requests held for their turn, having come ahead of the expected PSN (selective repeat)")
	own(&s.rxReissues, "rx_read_reissues", "packets", "READ requests issued again that the responder served (each a NAK to its congestion control, but under EQDS)")
	own(&s.rspTimeouts, "response_timeouts", "events", "times the responder gave up the READ responses it counted in flight, no feedback having come for an RTO (each a timeout to its congestion control, but under EQDS)")
	own(&s.staleJobs, "read_jobs_dropped", "reads", "reads the responder stopped serving when the requester's feedback said they were wholly placed")
	own(&s.qpFailures, "qp_retry_exceeded", "QPs", "QPs failed after Config.RetryCount timeouts in a row without progress")
	own(&s.lengthErrors, "qp_length_errors", "QPs", "QPs failed at a message longer than MaxMessageBytes")
	own(&s.flushed, "wr_flushed", "messages", "work requests completed with an error by a failed QP")
	s.oneWay = r.Histogram(p+"/one_way_latency", "ps", "doorbell written to responder CQE visible")
}
