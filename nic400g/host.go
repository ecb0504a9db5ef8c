package nic400g

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/pipeline"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// HostOp names an operation of the host interface, for Host.Last.
type HostOp uint8

// The host interface operations; each records one or two budget stages.
const (
	// OpDoorbell is the doorbell MMIO write (with the WQE when inline).
	OpDoorbell HostOp = iota
	// OpWQEFetch is the DMA read of a WQE (after a doorbell without
	// inline WQE, or a fetch of further WQEs).
	OpWQEFetch
	// OpPayloadRead is the DMA read of transmit data.
	OpPayloadRead
	// OpPayloadWrite is the DMA write of received data.
	OpPayloadWrite
	// OpCQE is the CQE write until a polling CPU sees it.
	OpCQE
	// OpQPCFetch is the read of a QP context on a cache miss.
	OpQPCFetch
	numHostOps
)

// Stage names and sources of the host interface's budget rows (FACTS 5.1,
// 5.2, 6.2). The times come from the PCIe and host models, never from
// these texts.
const (
	// HostStageDoorbellInline is the doorbell written with its WQE,
	// from the CPU's store to the WQE at the NIC (FACTS 6.2).
	HostStageDoorbellInline = "host: doorbell + inline WQE (MMIO)"
	// HostStageDoorbell is the doorbell alone, from the CPU's store to
	// its arrival at the NIC (FACTS 6.2).
	HostStageDoorbell = "host: doorbell (MMIO)"
	// HostStageWQEFetch is a WQE read, from its request to the WQE at
	// the NIC (FACTS 6.2).
	HostStageWQEFetch = "host: WQE DMA read"
	// HostStagePayloadRead is a transmit data read, from its first
	// request to its last byte at the NIC (FACTS 5.2).
	HostStagePayloadRead = "host: TX data DMA read"
	// HostStagePayloadWrite is a receive data write, from its posting to
	// its last byte at the host (FACTS 5.2, 6.2).
	HostStagePayloadWrite = "host: RX data DMA write"
	// HostStageCQE is a CQE write until the polling CPU sees it (FACTS
	// 6.2); after Complete it starts when the data has arrived.
	HostStageCQE = "host: CQE write until visible"
	// HostStageQPCFetch is a QP context read on a cache miss (FACTS 5.1).
	HostStageQPCFetch = "host: QP context read (cache miss)"

	srcDoorbell = "FACTS 6.2 (E): MMIO posted write, 150-250 ns"
	srcWQEFetch = "FACTS 6.2 (E): WQE DMA read without inline, +500-900 ns"
	srcPayload  = "FACTS 5.2 (E): PCIe Gen5 x16 TLP timing"
	srcCQE      = "FACTS 6.2 (E): DMA write of data and CQE until visible, 150-300 ns"
	srcQPC      = "FACTS 5.1 (E): QPC miss = one PCIe read round trip, 0.5-1.0 us"
)

// Host is the host side of the NIC's host interface as a timing model
// over a PCIeLink (FACTS 5.1, 5.2, 6.2): doorbells with or without an
// inline WQE, WQE fetch, data DMA for transmit and receive, CQE writes
// and their visibility to a polling CPU, and the QP context read of a
// cache miss. It is not a kernel component: the NIC component calls it
// from its Eval with the current time (never decreasing) and sleeps until
// the times it returns. Each operation records its budget stage, the time
// from its start to its completion as pipeline.TimeStage rows named by
// the Stage constants: the last of each HostOp is kept (Last) and, when a
// trace is set (SetTrace), every stage is appended to it in call order,
// so a budget report lists exactly the latencies the model produced. No
// operation allocates, except by growing a trace beyond its capacity.
type Host struct {
	cfg   HostConfig
	link  *PCIeLink
	last  [numHostOps]pipeline.StageBudget
	trace *pipeline.Budget
}

// NewHost returns the host model over link, or the error of
// cfg.Validate.
func NewHost(cfg HostConfig, link *PCIeLink) (*Host, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if link == nil {
		return nil, fmt.Errorf("host: nil PCIe link")
	}
	return &Host{cfg: cfg, link: link}, nil
}

// Config returns the configuration.
func (h *Host) Config() HostConfig { return h.cfg }

// Link returns the PCIe link the host uses.
func (h *Host) Link() *PCIeLink { return h.link }

// SetTrace makes every later operation append its stages to *b (nil
// stops tracing). Give b capacity to keep the hot path free of
// allocation.
func (h *Host) SetTrace(b *pipeline.Budget) { h.trace = b }

// Last returns the stage recorded by the latest operation of kind op
// (the zero StageBudget if none ran).
func (h *Host) Last(op HostOp) pipeline.StageBudget { return h.last[op] }

func (h *Host) record(op HostOp, name string, from, to rtlmodel.Time, src string) {
	s := pipeline.TimeStage(name, to-from, src)
	h.last[op] = s
	if h.trace != nil {
		*h.trace = append(*h.trace, s)
	}
}

// Inline reports whether a WQE of wqeBytes goes inline with its doorbell.
func (h *Host) Inline(wqeBytes uint32) bool {
	return wqeBytes > 0 && hostRoundUp(uint64(wqeBytes), uint64(h.cfg.WQEBB)) <= uint64(h.cfg.InlineMax)
}

// Doorbell models the CPU posting a WQE of wqeBytes and ringing the
// doorbell at now. A WQE that fits InlineMax (whole WQEBBs) is written
// with the doorbell as MMIO write-combined TLPs, and both times are its
// arrival at the NIC (FACTS 6.2, BlueFlame style). Otherwise an
// 8-byte doorbell is written and the NIC reads the WQE (whole WQEBBs)
// when the doorbell arrives: doorbellAt is the doorbell's arrival (when a
// QP context prefetch may start) and wqeAt the end of the WQE read, one
// read round trip later (FACTS 6.2: +500–900 ns). It records
// HostStageDoorbellInline, or HostStageDoorbell and HostStageWQEFetch.
func (h *Host) Doorbell(now rtlmodel.Time, wqeBytes uint32) (doorbellAt, wqeAt rtlmodel.Time) {
	start := now + h.cfg.MMIOIssue
	if h.Inline(wqeBytes) {
		n := hostRoundUp(uint64(wqeBytes), uint64(h.cfg.WQEBB))
		at := h.link.HostWrite(now, start, hostRoundUp(n, DWBytes), h.cfg.WCBytes)
		h.record(OpDoorbell, HostStageDoorbellInline, now, at, srcDoorbell)
		return at, at
	}
	db := h.link.HostWrite(now, start, uint64(h.cfg.DoorbellBytes), h.cfg.WCBytes)
	h.record(OpDoorbell, HostStageDoorbell, now, db, srcDoorbell)
	return db, h.fetchWQE(now, db, wqeBytes)
}

func (h *Host) fetchWQE(now, start rtlmodel.Time, wqeBytes uint32) rtlmodel.Time {
	n := hostRoundUp(uint64(max(wqeBytes, 1)), uint64(h.cfg.WQEBB))
	at := h.link.ReadAt(now, start, n)
	h.record(OpWQEFetch, HostStageWQEFetch, start, at, srcWQEFetch)
	return at
}

// FetchWQE reads wqeBytes of send-queue WQEs (whole WQEBBs, at least
// one) from host memory at now and returns when they are at the NIC. It
// records HostStageWQEFetch.
func (h *Host) FetchWQE(now rtlmodel.Time, wqeBytes uint32) rtlmodel.Time {
	return h.fetchWQE(now, now, wqeBytes)
}

// ReadPayload reads n bytes of transmit data from host memory at now
// (MRRS requests, completions split per the link's configuration) and
// returns when the last byte is at the NIC (FACTS 5.2). It records
// HostStagePayloadRead.
func (h *Host) ReadPayload(now rtlmodel.Time, n uint64) rtlmodel.Time {
	at := h.link.Read(now, n)
	h.record(OpPayloadRead, HostStagePayloadRead, now, at, srcPayload)
	return at
}

// WritePayload writes n bytes of received data to host memory at now
// (posted, MPS TLPs) and returns when the last byte has arrived at the
// host (FACTS 5.2, 6.2). It records HostStagePayloadWrite.
func (h *Host) WritePayload(now rtlmodel.Time, n uint64) rtlmodel.Time {
	at := h.link.PostedWrite(now, n)
	h.record(OpPayloadWrite, HostStagePayloadWrite, now, at, srcPayload)
	return at
}

// MinCQELatency is the least time from a CQE's write (WriteCQE, or
// Complete's CQE) to the polling CPU seeing it: the link's one-way latency
// and PollLatency, with the CQE's own bytes and anything queued ahead of
// it adding to that.
func (h *Host) MinCQELatency() rtlmodel.Time { return h.link.cfg.OneWay + h.cfg.PollLatency }

// WriteCQE writes one CQE at now and returns when the polling CPU sees
// it: its arrival at the host plus PollLatency (FACTS 6.2). Posted writes
// stay in order, so a CQE written after data is seen after the data. It
// records HostStageCQE from now.
func (h *Host) WriteCQE(now rtlmodel.Time) rtlmodel.Time {
	at := h.link.PostedWrite(now, uint64(h.cfg.CQEBytes)) + h.cfg.PollLatency
	h.record(OpCQE, HostStageCQE, now, at, srcCQE)
	return at
}

// Complete writes n bytes of received data and then its CQE, both posted
// at now, and returns when the data has arrived and when the CPU sees the
// CQE (FACTS 6.2: "DMA write of data and CQE until visible"). It records
// HostStagePayloadWrite from now to dataAt and HostStageCQE from dataAt to
// visible, so the two rows add up to the whole. With n = 0 only the CQE
// is written.
func (h *Host) Complete(now rtlmodel.Time, n uint64) (dataAt, visible rtlmodel.Time) {
	dataAt = h.WritePayload(now, n)
	visible = h.link.PostedWrite(now, uint64(h.cfg.CQEBytes)) + h.cfg.PollLatency
	h.record(OpCQE, HostStageCQE, dataAt, visible, srcCQE)
	return dataAt, visible
}

// FetchQPC reads one QP context (QPCBytes) from the host-memory backing
// store at now and returns when it is at the NIC: the QP context cache's
// miss path, one PCIe read round trip (FACTS 5.1). It records
// HostStageQPCFetch.
func (h *Host) FetchQPC(now rtlmodel.Time) rtlmodel.Time {
	at := h.link.Read(now, uint64(h.cfg.QPCBytes))
	h.record(OpQPCFetch, HostStageQPCFetch, now, at, srcQPC)
	return at
}
