package nic400g

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// PCIeDirection names one direction of the NIC's PCIe link.
type PCIeDirection uint8

const (
	// Upstream is NIC to host: posted writes (receive data, CQEs) and read
	// requests.
	Upstream PCIeDirection = iota
	// Downstream is host to NIC: MMIO writes (doorbells) and read
	// completions.
	Downstream
)

// String names the direction.
func (d PCIeDirection) String() string {
	if d == Upstream {
		return "upstream"
	}
	return "downstream"
}

// PCIeLink is the NIC's PCIe link (FACTS 5.2) with its fixed latencies
// (FACTS 5.1, 6.2) as a plain timing model: each direction serialises TLP
// bytes at the exact LinkRate (see pcieDir for the busy intervals and the
// carried fraction of a picosecond), and a TLP is usable at the far end
// OneWay after its last byte is serialised. Read completions leave the
// root complex CompleterLatency after their request arrives there.
// Within a direction, posted writes keep their order and no request or
// completion passes a posted write requested before it (see pcieDir).
//
// The owning component calls it from its Eval with the current time; the
// now of successive calls must not decrease (a call with an earlier now
// panics). Returned times are the exact times rounded down to whole ps.
// Not modelled: flow-control credit stalls (the root complex is assumed to
// advertise enough posted credits and the NIC, as an endpoint, infinite
// completion credits), the limit on outstanding read tags, and the PHY
// lane striping (the rate is averaged over 128b/130b blocks or flits).
// No method allocates in steady state.
type PCIeLink struct {
	cfg      PCIeConfig
	up, down pcieDir
	now      rtlmodel.Time
}

// NewPCIeLink returns an idle link, or the error of cfg.Validate.
func NewPCIeLink(cfg PCIeConfig) (*PCIeLink, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	bt := cfg.ByteTime()
	return &PCIeLink{cfg: cfg, up: newPCIeDir(bt.Num(), bt.Den()), down: newPCIeDir(bt.Num(), bt.Den())}, nil
}

// Config returns the configuration.
func (l *PCIeLink) Config() PCIeConfig { return l.cfg }

// advance moves the link's notion of the present to now and drops the
// busy intervals that are over.
func (l *PCIeLink) advance(now rtlmodel.Time) {
	if now < l.now {
		panic(fmt.Sprintf("nic400g: PCIe link called at %d ps after %d ps", now, l.now))
	}
	l.now = now
	l.up.prune(now)
	l.down.prune(now)
}

// postedWrite serialises a write of n bytes cut at tlpMax bytes per TLP on
// d from start and returns its arrival.
func (l *PCIeLink) postedWrite(d *pcieDir, start rtlmodel.Time, n uint64, tlpMax uint32) rtlmodel.Time {
	if n == 0 {
		return start
	}
	tlpMax = min(tlpMax, l.cfg.MPS)
	end := d.send(pcieTime{start, 0}, pcieCeilDiv(n, uint64(tlpMax)), l.cfg.splitWireBytes(n, tlpMax), true)
	return end.ps + l.cfg.OneWay
}

// PostedWrite sends a posted write of n bytes from the NIC to host memory
// at now, cut into MPS TLPs, and returns when its last byte has arrived at
// the host (FACTS 5.2, 6.2). A zero-byte write returns now.
func (l *PCIeLink) PostedWrite(now rtlmodel.Time, n uint64) rtlmodel.Time {
	l.advance(now)
	return l.postedWrite(&l.up, now, n, l.cfg.MPS)
}

// HostWrite sends a write of n bytes from the host's root complex to the
// NIC (an MMIO write: a doorbell or an inline WQE) that enters the link at
// start (not before now), cut into TLPs of at most tlpMax bytes (the CPU's
// write-combining buffer) and MPS, and returns when its last byte has
// arrived at the NIC. A zero-byte write returns start.
func (l *PCIeLink) HostWrite(now, start rtlmodel.Time, n uint64, tlpMax uint32) rtlmodel.Time {
	l.advance(now)
	if start < now {
		panic("nic400g: PCIe host write starts before now")
	}
	return l.postedWrite(&l.down, start, n, max(tlpMax, DWBytes))
}

// Read reads n bytes of host memory at now: MRRS read requests go
// upstream back to back, each request's completions (split per
// PCIeConfig.Completions) leave the root complex OneWay +
// CompleterLatency after the request's last byte, and Read returns when
// the last completion byte has arrived at the NIC. A zero-byte read
// returns now.
func (l *PCIeLink) Read(now rtlmodel.Time, n uint64) rtlmodel.Time {
	l.advance(now)
	return l.read(now, n)
}

func (l *PCIeLink) read(start rtlmodel.Time, n uint64) rtlmodel.Time {
	if n == 0 {
		return start
	}
	if end, ok := l.readBehind(start, n); ok {
		return end.ps + l.cfg.OneWay
	}
	return l.readSearch(start, n).ps + l.cfg.OneWay
}

// readSearch reserves a read's requests and completions one by one, each
// searching its direction for the first gap it fits.
func (l *PCIeLink) readSearch(start rtlmodel.Time, n uint64) pcieTime {
	c := &l.cfg
	mrrs := uint64(c.MRRS)
	reqBytes := uint64(c.MemOverhead())
	turn := c.OneWay + c.CompleterLatency
	var end pcieTime
	for left := n; left > 0; {
		r := min(left, mrrs)
		left -= r
		req := l.up.send(pcieTime{start, 0}, 1, reqBytes, false)
		cpls := c.requestCpls(r)
		e := l.down.send(pcieTime{req.ps + turn, req.frac}, cpls, r+cpls*uint64(c.CplOverhead()), false)
		if end.less(e) {
			end = e
		}
	}
	return end
}

// ReadAt is Read of a request issued at start, not before now: for a read
// that follows an event the caller already knows the time of (a WQE fetch
// after its doorbell arrives).
func (l *PCIeLink) ReadAt(now, start rtlmodel.Time, n uint64) rtlmodel.Time {
	l.advance(now)
	if start < now {
		panic("nic400g: PCIe read starts before now")
	}
	return l.read(start, n)
}

// BusyUntil returns the end, rounded down to whole ps, of the latest
// transfer reserved on direction d (a direction free since earlier
// returns that earlier time).
func (l *PCIeLink) BusyUntil(d PCIeDirection) rtlmodel.Time {
	if d == Upstream {
		return l.up.last.ps
	}
	return l.down.last.ps
}

// Carried returns the exact end of the latest transfer on direction d as
// whole ps plus a fraction num/den of a ps (den is ByteTime's
// denominator).
func (l *PCIeLink) Carried(d PCIeDirection) (ps rtlmodel.Time, num, den uint64) {
	x := &l.up
	if d == Downstream {
		x = &l.down
	}
	return x.last.ps, x.last.frac, x.div
}

// Counts returns the TLPs and TLP wire bytes sent so far on direction d.
func (l *PCIeLink) Counts(d PCIeDirection) (tlps, wireBytes uint64) {
	if d == Upstream {
		return l.up.tlps, l.up.bytes
	}
	return l.down.tlps, l.down.bytes
}

// Reset returns the link to idle at time 0 with zero counts.
func (l *PCIeLink) Reset() {
	l.up.reset()
	l.down.reset()
	l.now = 0
}

// IdlePostedWriteTime returns the latency of a posted write of n bytes on
// an idle link: its wire time rounded down plus OneWay.
func (c *PCIeConfig) IdlePostedWriteTime(n uint64) (rtlmodel.Time, error) {
	l, err := NewPCIeLink(*c)
	if err != nil {
		return 0, err
	}
	return l.PostedWrite(0, n), nil
}

// IdleReadTime returns the latency of a read of n bytes on an idle link,
// from the request to the last completion byte at the NIC: the read round
// trip of FACTS 5.1 (a 256-byte QP context) and 6.2 (a 64-byte WQE).
func (c *PCIeConfig) IdleReadTime(n uint64) (rtlmodel.Time, error) {
	l, err := NewPCIeLink(*c)
	if err != nil {
		return 0, err
	}
	return l.Read(0, n), nil
}
