package nic400g

import "github.com/fabricmodel/fabricmodel/rtlmodel"

// HostSide is the NIC's view of the host: when each host-interface
// operation issued at now completes. Implementations keep their own busy
// state (a PCIe link serialises its TLPs) and allocate nothing per call.
type HostSide interface {
	// Doorbell is when a doorbell the CPU writes at now reaches the NIC,
	// with the WQE inline (inline) or not.
	Doorbell(now rtlmodel.Time, inline bool) rtlmodel.Time
	// FetchWQE is when a 64 B WQE read issued at now has arrived.
	FetchWQE(now rtlmodel.Time) rtlmodel.Time
	// ReadData is when bytes of payload read from host memory at now have
	// arrived.
	ReadData(now rtlmodel.Time, bytes uint32) rtlmodel.Time
	// Complete writes bytes of received data at now, then a CQE behind
	// them: when the data is in memory and when the CQE is visible to the
	// polling CPU.
	Complete(now rtlmodel.Time, bytes uint32) (dataAt, visible rtlmodel.Time)
	// WriteCQE is when a CQE written at now is visible to the polling CPU.
	WriteCQE(now rtlmodel.Time) rtlmodel.Time
	// FetchContext is when a QP context read issued at now has arrived
	// (a QP cache miss).
	FetchContext(now rtlmodel.Time) rtlmodel.Time
	// MinCQELatency is the least time from a CQE's write at now (WriteCQE
	// or Complete) to its being visible.
	MinCQELatency() rtlmodel.Time
}

// PCIeHostSide is the host interface over the PCIe link model: every
// operation is TLPs on the link, serialised in each direction (Host,
// PCIeLink; FACTS 5.2, 6.2).
type PCIeHostSide struct {
	h        *Host
	inline   uint32          // WQE bytes of an inline write (64 B of data: 128 B, two WQEBBs)
	pending  []rtlmodel.Time // WQE reads the doorbells started, in order
	pendHead int
}

// NewPCIeHostSide builds the host interface from its configurations.
func NewPCIeHostSide(pc PCIeConfig, hc HostConfig) (*PCIeHostSide, error) {
	link, err := NewPCIeLink(pc)
	if err != nil {
		return nil, err
	}
	h, err := NewHost(hc, link)
	if err != nil {
		return nil, err
	}
	return &PCIeHostSide{h: h, inline: 2 * hc.WQEBB}, nil
}

// NewDefaultPCIeHostSide builds the PCIe Gen5 x16 host model with its
// default configuration, and the QP context miss latency it implies: what
// a context read costs on the idle link (FACTS 5.1).
func NewDefaultPCIeHostSide() (*PCIeHostSide, rtlmodel.Time, error) {
	pc, hc := DefaultPCIeConfig(), DefaultHostConfig()
	h, err := NewPCIeHostSide(pc, hc)
	if err != nil {
		return nil, 0, err
	}
	miss, err := HostQPCMissLatency(pc, hc)
	return h, miss, err
}

// Host returns the host model (its budget trace and link).
func (p *PCIeHostSide) Host() *Host { return p.h }

// Doorbell writes the doorbell (with the WQE when inline); for a WQE the
// NIC must fetch, the host model starts that read at the doorbell's
// arrival and FetchWQE returns its end.
func (p *PCIeHostSide) Doorbell(now rtlmodel.Time, inline bool) rtlmodel.Time {
	if inline {
		at, _ := p.h.Doorbell(now, p.inline)
		return at
	}
	at, wqe := p.h.Doorbell(now, p.h.Config().InlineMax+p.h.Config().WQEBB)
	p.pending = append(p.pending, wqe)
	return at
}

// FetchWQE returns when the WQE of the oldest non-inline doorbell is in.
func (p *PCIeHostSide) FetchWQE(now rtlmodel.Time) rtlmodel.Time {
	if p.pendHead == len(p.pending) {
		return p.h.FetchWQE(now, p.h.Config().WQEBB)
	}
	t := p.pending[p.pendHead]
	p.pendHead++
	if p.pendHead == len(p.pending) {
		p.pending, p.pendHead = p.pending[:0], 0
	}
	return max(t, now)
}

// ReadData reads transmit payload.
func (p *PCIeHostSide) ReadData(now rtlmodel.Time, bytes uint32) rtlmodel.Time {
	return p.h.ReadPayload(now, uint64(bytes))
}

// Complete writes received data and its CQE.
func (p *PCIeHostSide) Complete(now rtlmodel.Time, bytes uint32) (rtlmodel.Time, rtlmodel.Time) {
	return p.h.Complete(now, uint64(bytes))
}

// WriteCQE writes a requester CQE.
func (p *PCIeHostSide) WriteCQE(now rtlmodel.Time) rtlmodel.Time { return p.h.WriteCQE(now) }

// FetchContext reads a QP context.
func (p *PCIeHostSide) FetchContext(now rtlmodel.Time) rtlmodel.Time { return p.h.FetchQPC(now) }

// MinCQELatency is Host.MinCQELatency.
func (p *PCIeHostSide) MinCQELatency() rtlmodel.Time { return p.h.MinCQELatency() }

// FixedHostSide is a host with fixed latencies and unlimited bandwidth,
// for tests that isolate the network (E: FACTS 6.2 mid-range values).
type FixedHostSide struct {
	DoorbellLatency rtlmodel.Time // MMIO posted write to the NIC
	ReadLatency     rtlmodel.Time // DMA read round trip
	WriteLatency    rtlmodel.Time // DMA posted write
	CQEVisible      rtlmodel.Time // CQE write until the CPU sees it
}

// DefaultFixedHostSide returns latencies inside the FACTS 6.2 ranges (E):
// a 200 ns doorbell (150-250), a 750 ns read round trip (FACTS 5.1:
// 600-900), and 100 ns each for the data write and the CQE to become
// visible (together 200 ns of the 150-300 ns row).
func DefaultFixedHostSide() *FixedHostSide {
	return &FixedHostSide{DoorbellLatency: 200 * rtlmodel.Nanosecond, ReadLatency: 750 * rtlmodel.Nanosecond,
		WriteLatency: 100 * rtlmodel.Nanosecond, CQEVisible: 100 * rtlmodel.Nanosecond}
}

func (h *FixedHostSide) Doorbell(now rtlmodel.Time, _ bool) rtlmodel.Time {
	return now + h.DoorbellLatency
}
func (h *FixedHostSide) FetchWQE(now rtlmodel.Time) rtlmodel.Time { return now + h.ReadLatency }
func (h *FixedHostSide) ReadData(now rtlmodel.Time, _ uint32) rtlmodel.Time {
	return now + h.ReadLatency
}
func (h *FixedHostSide) Complete(now rtlmodel.Time, _ uint32) (rtlmodel.Time, rtlmodel.Time) {
	return now + h.WriteLatency, now + h.WriteLatency + h.CQEVisible
}
func (h *FixedHostSide) WriteCQE(now rtlmodel.Time) rtlmodel.Time     { return now + h.CQEVisible }
func (h *FixedHostSide) FetchContext(now rtlmodel.Time) rtlmodel.Time { return now + h.ReadLatency }
func (h *FixedHostSide) MinCQELatency() rtlmodel.Time                 { return h.CQEVisible }
