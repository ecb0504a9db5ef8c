package verify

import "fmt"

// comparer compares an observed output with an expected one under the
// map's masks and names the RTL signals involved.
type comparer struct {
	spec     *PortSpec
	masks    []uint64
	fieldSig []string
	dataSig  string
	validSig string
}

func newComparer(spec *PortSpec, pm *PortMap, out *portReader) *comparer {
	c := &comparer{spec: spec, validSig: out.valid.name, dataSig: out.tdata.name}
	for i, f := range spec.Fields {
		m := mask(f.Width)
		if v, ok := pm.Mask[f.Name]; ok {
			m &= v
		}
		c.masks = append(c.masks, m)
		c.fieldSig = append(c.fieldSig, out.fields[i].name)
	}
	return c
}

// diff returns the first difference between exp and got, or nil. An x or
// z in a compared bit is a difference of its own kind.
func (c *comparer) diff(exp, got *Txn) *Divergence {
	if c.spec.Kind == Frame {
		return c.diffFrame(exp, got)
	}
	for i, f := range c.spec.Fields {
		m := c.masks[i]
		var x uint64
		if got.X != nil {
			x = got.X[i]
		}
		e, g := exp.Fields[i]&m, got.Fields[i]&m
		d := &Divergence{Signal: c.fieldSig[i], Field: f.Name,
			Expected: hexDigits(exp.Fields[i], 0, f.Width), Got: hexDigits(got.Fields[i], x, f.Width)}
		if m != mask(f.Width) {
			d.Detail = fmt.Sprintf("compared bits %s", hexDigits(m, 0, f.Width))
		}
		switch {
		case x&m != 0:
			d.Kind = KindX
			d.Detail = fmt.Sprintf("x/z in compared bits %s of output field %s", hexDigits(x&m, 0, f.Width), f.Name)
			return d
		case e != g:
			d.Kind = KindMismatch
			return d
		}
	}
	return nil
}

func (c *comparer) diffFrame(exp, got *Txn) *Divergence {
	d := &Divergence{Signal: c.dataSig, Field: "frame", Expected: formatFrame(exp.Data, nil), Got: formatFrame(got.Data, got.DataX)}
	n := min(len(exp.Data), len(got.Data))
	for i := 0; i < n; i++ {
		if i < len(got.DataX) && got.DataX[i] != 0 {
			d.Kind, d.Detail = KindX, fmt.Sprintf("x/z in byte %d of the output frame", i)
			return d
		}
		if exp.Data[i] != got.Data[i] {
			d.Kind = KindMismatch
			d.Detail = fmt.Sprintf("byte %d: expected %02x, got %02x", i, exp.Data[i], got.Data[i])
			return d
		}
	}
	if len(exp.Data) != len(got.Data) {
		d.Kind, d.Detail = KindMismatch, fmt.Sprintf("frame of %d bytes, expected %d", len(got.Data), len(exp.Data))
		return d
	}
	return nil
}
