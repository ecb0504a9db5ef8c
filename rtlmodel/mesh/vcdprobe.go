package mesh

import (
	"io"
	"strings"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/rtlmodel/vcd"
)

// Probe writes every link of a mesh as a VCD signal under the sending
// component's scope: <receiver>_count, the number of flits sent so far. It
// changes at the sender's edge, so the file shows each transfer at its
// cycle.
type Probe struct {
	w     *vcd.Writer
	count map[string]vcd.Handle
	n     map[string]uint64
	err   error
}

// AttachVCD declares the mesh's links in a VCD written to out (timescale
// 1 ps) and records every transfer from then on. Call Close at the end.
func AttachVCD(m *Mesh, out io.Writer) (*Probe, error) {
	w, err := vcd.NewWriter(out, vcd.WriterOptions{})
	if err != nil {
		return nil, err
	}
	p := &Probe{w: w, count: map[string]vcd.Handle{}, n: map[string]uint64{}}
	if err := w.PushScope(vcd.ScopeModule, "mesh"); err != nil {
		return nil, err
	}
	declare := func(from *rtlmodel.Handle, links []*rtlmodel.Link[Flit]) error {
		if err := w.PushScope(vcd.ScopeModule, vcdName(from.Path())); err != nil {
			return err
		}
		for _, l := range links {
			if l == nil {
				continue
			}
			to := vcdName(l.To().Path())
			c, err := w.Declare(vcd.VarReg, 32, to+"_count")
			if err != nil {
				return err
			}
			p.count[l.Name()] = c
			if err := w.SetUint64(c, 0); err != nil {
				return err
			}
		}
		return w.PopScope()
	}
	for _, r := range m.Routers {
		if err := declare(r.h, r.out[:]); err != nil {
			return nil, err
		}
	}
	for _, e := range m.Endpoints {
		if err := declare(e.h, []*rtlmodel.Link[Flit]{e.out}); err != nil {
			return nil, err
		}
	}
	if err := w.PopScope(); err != nil {
		return nil, err
	}
	if err := w.EndDefinitions(); err != nil {
		return nil, err
	}
	m.Engine.Hooks().OnTransfer(p.record)
	return p, nil
}

// vcdName turns a component path into a VCD identifier.
func vcdName(path string) string {
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		path = path[i+1:]
	}
	return path
}

func (p *Probe) record(ev *rtlmodel.TransferEvent) {
	if p.err != nil {
		return
	}
	c, ok := p.count[ev.Link]
	if !ok {
		return
	}
	if p.err = p.w.Time(uint64(ev.Time)); p.err != nil {
		return
	}
	p.n[ev.Link]++
	p.err = p.w.SetUint64(c, p.n[ev.Link])
}

// Close flushes the VCD and returns the first error seen.
func (p *Probe) Close() error {
	if err := p.w.Close(); err != nil && p.err == nil {
		p.err = err
	}
	return p.err
}
