package verify

import "fmt"

// maxFrameBytes bounds one frame, so a stream without tlast cannot use
// unbounded memory.
const maxFrameBytes = 1 << 20

// portReader assembles the transactions of one port from sampled values.
type portReader struct {
	spec         *PortSpec
	valid, ready probe
	fields       []probe
	tdata, tkeep probe
	tlast, tuser probe
	lanes        int
	frame        Txn
	frameX       bool
}

// sampleIssue is an x or z where a transaction needs a known value.
type sampleIssue struct {
	signal string
	what   string
	value  string
}

func bindPort(b *binder, side string, pm *PortMap, spec *PortSpec) (*portReader, error) {
	p := &portReader{spec: spec}
	var err error
	if p.valid, err = b.bindBit(pm.Valid, side+".valid"); err != nil {
		return nil, err
	}
	if p.ready, err = b.bindBit(pm.Ready, side+".ready"); err != nil {
		return nil, err
	}
	if spec.Kind == Beat {
		p.fields = make([]probe, len(spec.Fields))
		for i, f := range spec.Fields {
			if p.fields[i], err = b.bind(pm.Fields[f.Name], side+"."+f.Name, f.Width); err != nil {
				return nil, err
			}
		}
		return p, nil
	}
	if p.tdata, err = b.bind(pm.TData, side+".tdata", 0); err != nil {
		return nil, err
	}
	if p.tdata.constant || p.tdata.width%8 != 0 {
		return nil, b.m.errAt(pm.TData.Line, "%s.tdata: %s must be a signal of a multiple of 8 bits", side, pm.TData.Text)
	}
	p.lanes = p.tdata.width / 8
	if p.tkeep, err = b.bind(pm.TKeep, side+".tkeep", 64); err != nil {
		return nil, err
	}
	if p.tkeep.set && !p.tkeep.constant && p.tkeep.width != p.lanes {
		return nil, b.m.errAt(pm.TKeep.Line, "%s.tkeep: %d bits for %d byte lanes of tdata", side, p.tkeep.width, p.lanes)
	}
	if p.tlast, err = b.bindBit(pm.TLast, side+".tlast"); err != nil {
		return nil, err
	}
	if p.tuser, err = b.bind(pm.TUser, side+".tuser", 64); err != nil {
		return nil, err
	}
	return p, nil
}

func (p *portReader) probes() []*probe {
	ps := []*probe{&p.valid, &p.ready, &p.tdata, &p.tkeep, &p.tlast, &p.tuser}
	for i := range p.fields {
		ps = append(ps, &p.fields[i])
	}
	return ps
}

// bitIssue checks a one-bit control for x or z.
func bitIssue(pr probe, vals [][]byte, what string) (bool, *sampleIssue) {
	if !pr.set {
		return true, nil
	}
	switch pr.bit(vals) {
	case '1', 'h':
		return true, nil
	case '0', 'l':
		return false, nil
	}
	return false, &sampleIssue{signal: pr.name, what: what, value: string(pr.bit(vals))}
}

// sample reads the port at one edge. It returns a completed transaction
// (a beat, or a frame on its last beat), or an issue when a control signal
// or an input value is x or z.
func (p *portReader) sample(vals [][]byte, cycle, time uint64, input bool) (*Txn, *sampleIssue) {
	v, iss := bitIssue(p.valid, vals, "valid")
	if iss != nil || !v {
		return nil, iss
	}
	r, iss := bitIssue(p.ready, vals, "ready")
	if iss != nil || !r {
		return nil, iss
	}
	if p.spec.Kind == Beat {
		t := &Txn{Cycle: cycle, Time: time, Fields: make([]uint64, len(p.fields))}
		for i, pr := range p.fields {
			val, x := pr.read(vals)
			if x != 0 {
				if input {
					return nil, &sampleIssue{signal: pr.name, what: "input field " + p.spec.Fields[i].Name, value: hexDigits(val, x, pr.width)}
				}
				if t.X == nil {
					t.X = make([]uint64, len(p.fields))
				}
				t.X[i] = x
			}
			t.Fields[i] = val
		}
		return t, nil
	}
	return p.beat(vals, cycle, time, input)
}

// beat adds one AXI-Stream beat to the frame being assembled.
func (p *portReader) beat(vals [][]byte, cycle, time uint64, input bool) (*Txn, *sampleIssue) {
	keep := ^uint64(0)
	if p.tkeep.set {
		k, x := p.tkeep.read(vals)
		if x != 0 {
			return nil, &sampleIssue{signal: p.tkeep.name, what: "tkeep", value: hexDigits(k, x, p.lanes)}
		}
		keep = k
	}
	last, iss := bitIssue(p.tlast, vals, "tlast")
	if iss != nil {
		return nil, iss
	}
	if p.tuser.set {
		u, x := p.tuser.read(vals)
		if x != 0 {
			return nil, &sampleIssue{signal: p.tuser.name, what: "tuser", value: hexDigits(u, x, p.tuser.width)}
		}
		p.frame.User |= u
	}
	for j := 0; j < p.lanes; j++ {
		if keep>>j&1 == 0 {
			continue
		}
		b, x := p.tdata.lane(vals, j)
		if x != 0 {
			if input {
				return nil, &sampleIssue{signal: p.tdata.name, what: fmt.Sprintf("input tdata lane %d", j), value: hexDigits(uint64(b), uint64(x), 8)}
			}
			if p.frame.DataX == nil {
				p.frame.DataX = make([]byte, len(p.frame.Data), cap(p.frame.Data))
			}
		}
		p.frame.Data = append(p.frame.Data, b)
		if p.frame.DataX != nil {
			p.frame.DataX = append(p.frame.DataX, x)
		}
	}
	if len(p.frame.Data) > maxFrameBytes {
		return nil, &sampleIssue{signal: p.tlast.name, what: "tlast", value: fmt.Sprintf("missing after %d bytes", len(p.frame.Data))}
	}
	if !last {
		return nil, nil
	}
	t := p.frame
	t.Cycle, t.Time = cycle, time
	p.frame = Txn{}
	return &t, nil
}

// reset drops a partly assembled frame.
func (p *portReader) reset() { p.frame = Txn{} }
