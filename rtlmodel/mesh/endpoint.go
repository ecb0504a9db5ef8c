package mesh

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// Traffic shapes the bursty on/off load of every endpoint.
type Traffic struct {
	// Bursts is how many bursts each endpoint sends before it goes quiet.
	Bursts int
	// BurstMean is the mean number of flits in a burst (uniform 1..2·mean-1).
	BurstMean int
	// GapMean is the mean idle gap between bursts in host cycles
	// (uniform 1..2·mean-1).
	GapMean int
}

// Endpoint is a traffic source and sink attached to a router's local port.
// Between bursts it sleeps until the cycle of its next burst.
type Endpoint struct {
	h         *rtlmodel.Handle
	id, n     int
	traffic   Traffic
	out       *rtlmodel.Link[Flit]
	in        *rtlmodel.Link[Flit]
	rng       *rtlmodel.RNG
	nextBurst uint64
	left      int
	bursts    int
	seq       uint32
	sent      *rtlmodel.Counter
	recv      *rtlmodel.Counter
	latency   *rtlmodel.Histogram
}

// Eval sinks arrived flits and sends at most one flit of the current burst.
func (p *Endpoint) Eval(edge rtlmodel.Edge) rtlmodel.Wake {
	for {
		f, ok := p.in.Recv()
		if !ok {
			break
		}
		if f.Dst != p.id {
			panic(fmt.Sprintf("mesh: flit %v delivered to endpoint %d", f, p.id))
		}
		p.recv.Inc()
		p.latency.Record(uint64(edge.Time - f.Born))
	}
	if p.left == 0 && p.bursts < p.traffic.Bursts && edge.Cycle >= p.nextBurst {
		p.left = 1 + p.rng.Intn(2*p.traffic.BurstMean-1)
		p.bursts++
	}
	if p.left > 0 && p.out.CanSend() {
		dst := p.rng.Intn(p.n - 1)
		if dst >= p.id {
			dst++
		}
		p.out.Send(Flit{Src: p.id, Dst: dst, Seq: p.seq, Born: edge.Time})
		p.seq++
		p.sent.Inc()
		p.left--
		if p.left == 0 {
			p.nextBurst = edge.Cycle + 1 + uint64(p.rng.Intn(2*p.traffic.GapMean-1))
		}
	}
	switch {
	case p.left > 0 && p.out.Credits() > 0:
		return edge.Next()
	case p.left > 0:
		return rtlmodel.Never // a credit return wakes us
	case p.bursts < p.traffic.Bursts:
		return rtlmodel.Wake(max(p.nextBurst, edge.Cycle+1))
	}
	return rtlmodel.Never
}

// BlockedOn reports a burst waiting for credits.
func (p *Endpoint) BlockedOn() string {
	if p.left > 0 && p.out.Credits() == 0 {
		return fmt.Sprintf("credits on %s (%d flits of the burst left)", p.out.Name(), p.left)
	}
	return ""
}
