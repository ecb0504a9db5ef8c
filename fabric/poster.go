package fabric

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/nic400g"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// poster is a CPU writing doorbells for its NIC's work requests at their
// posted times.
type poster struct {
	h    *rtlmodel.Handle
	out  *rtlmodel.Link[nic400g.WorkRequest]
	host nic400g.HostSide
	wrs  []nic400g.WorkRequest
	next int
}

// Eval rings the doorbells that are due and sleeps until the next one.
func (p *poster) Eval(edge rtlmodel.Edge) rtlmodel.Wake {
	for p.next < len(p.wrs) && p.wrs[p.next].Posted <= edge.Time && p.out.CanSend() {
		wr := p.wrs[p.next]
		p.out.SendAt(wr, p.host.Doorbell(wr.Posted, wr.Inline))
		p.next++
	}
	if p.next < len(p.wrs) {
		d := p.h.Domain()
		return rtlmodel.Wake(d.CycleAt(d.FirstEdgeAtOrAfter(max(p.wrs[p.next].Posted, edge.Time+1))))
	}
	return rtlmodel.Never
}

// AddPoster connects a 1 GHz CPU to NIC n that rings a doorbell for each
// of wrs (in order) at its Posted time, with host's MMIO timing.
func AddPoster(e *rtlmodel.Engine, n *nic400g.NIC, host nic400g.HostSide, wrs []nic400g.WorkRequest) error {
	id := n.Config().ID
	dom, err := e.AddDomain(fmt.Sprintf("cpu%d", id), 1000, 0)
	if err != nil {
		return err
	}
	p := &poster{host: host, wrs: wrs}
	if p.h, err = e.Add(dom, fmt.Sprintf("cpu%d/poster", id), p); err != nil {
		return err
	}
	p.out, err = rtlmodel.NewLink[nic400g.WorkRequest](fmt.Sprintf("cpu%d>nic", id), p.h, n.Handle(),
		rtlmodel.LinkConfig{Latency: 1, Width: 64})
	if err != nil {
		return err
	}
	n.ConnectDoorbells(p.out)
	return nil
}
