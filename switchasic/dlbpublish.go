package switchasic

import "github.com/fabricmodel/fabricmodel/rtlmodel"

// BandReader gives a port's DLB quality band, 0 (best) and up: a
// PortQuality, or the bands a switch's traffic manager published.
type BandReader interface {
	Band(port int) int
}

// publishedBands are the port bands the traffic manager publishes to the
// ingress pipes: it samples into its own PortQuality and copies the bands
// into the buffer the pipes do not read; a register owned by the traffic
// manager switches the pipes to it at the end of the edge. A pipe
// evaluated at the sample edge, before or after the traffic manager, reads
// the previous bands, so the order of evaluation cannot change a pick.
type publishedBands struct {
	visible *rtlmodel.Reg[int]
	buf     [2][]uint8
}

func newPublishedBands(owner *rtlmodel.Handle) *publishedBands {
	return &publishedBands{visible: rtlmodel.NewReg(owner, "dlb_bands", 0)}
}

// Band is port's band as last published.
func (p *publishedBands) Band(port int) int {
	if b := p.buf[p.visible.Q()]; port < len(b) {
		return int(b[port])
	}
	return 0
}

// publish copies q's bands of ports 0..n-1 into the hidden buffer and
// shows it from the next edge on; once per edge at most.
func (p *publishedBands) publish(q *PortQuality, n int) {
	next := 1 - p.visible.Q()
	b := p.buf[next]
	if len(b) < n {
		b = make([]uint8, n)
		p.buf[next] = b
	}
	for port := range n {
		b[port] = uint8(q.Band(port))
	}
	p.visible.Set(next)
}
