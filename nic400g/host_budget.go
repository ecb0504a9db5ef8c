package nic400g

import (
	"github.com/fabricmodel/fabricmodel/pipeline"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// Host-side latency budgets on an idle link (FACTS 5.1, 6.2). Each is
// measured by running the Host and PCIeLink models once from time 0 with
// a trace, so the rows are the stages the cycle model produces for the
// same configuration, never typed-in figures.

func newIdleHost(pc PCIeConfig, hc HostConfig) (*Host, *pipeline.Budget, error) {
	l, err := NewPCIeLink(pc)
	if err != nil {
		return nil, nil, err
	}
	h, err := NewHost(hc, l)
	if err != nil {
		return nil, nil, err
	}
	b := make(pipeline.Budget, 0, 4)
	h.SetTrace(&b)
	return h, &b, nil
}

// HostTxBudget returns the host-side transmit stages of one WQE of
// wqeBytes on an idle link: the doorbell with its inline WQE, or the
// doorbell and the WQE read (FACTS 6.2), followed, when payload is not
// zero, by the DMA read of payload bytes of data started when the WQE is
// at the NIC. The rows add up to the time from the CPU's doorbell store
// to the last byte the NIC needs.
func HostTxBudget(pc PCIeConfig, hc HostConfig, wqeBytes uint32, payload uint64) (pipeline.Budget, error) {
	h, b, err := newIdleHost(pc, hc)
	if err != nil {
		return nil, err
	}
	_, wqe := h.Doorbell(0, wqeBytes)
	if payload > 0 {
		h.ReadPayload(wqe, payload)
	}
	return *b, nil
}

// HostRxBudget returns the host-side receive stages of payload bytes on
// an idle link: the data DMA write and the CQE written after it until the
// polling CPU sees it (FACTS 6.2: 150–300 ns for a 64-byte write). The
// rows add up to the time from the NIC posting the data to the CQE being
// visible.
func HostRxBudget(pc PCIeConfig, hc HostConfig, payload uint64) (pipeline.Budget, error) {
	h, b, err := newIdleHost(pc, hc)
	if err != nil {
		return nil, err
	}
	h.Complete(0, payload)
	return *b, nil
}

// HostQPCMissLatency returns the time of a QP context read (QPCBytes) on
// an idle link: the miss latency of the QP context cache (FACTS 5.1:
// 0.5–1.0 µs; 654.76 ns with the defaults), for QPCacheConfig.MissLatency.
func HostQPCMissLatency(pc PCIeConfig, hc HostConfig) (rtlmodel.Time, error) {
	h, _, err := newIdleHost(pc, hc)
	if err != nil {
		return 0, err
	}
	return h.FetchQPC(0), nil
}
