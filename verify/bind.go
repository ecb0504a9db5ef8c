package verify

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/rtlmodel/vcd"
)

// probe reads a bit range of a watched signal, or a constant.
type probe struct {
	set      bool
	constant bool
	value    uint64
	slot     int
	lo       int // offset of the least significant bit from the signal's LSB
	width    int
	sigWidth int
	name     string // the reference as written, with scope
}

// bit returns the probe's least significant bit from a set of slot values.
func (p probe) bit(vals [][]byte) byte {
	if p.constant {
		return byte('0' + p.value&1)
	}
	b := vals[p.slot]
	return b[len(b)-1-p.lo]
}

// read returns the probe's value and its x/z bits (width at most 64).
func (p probe) read(vals [][]byte) (v, x uint64) {
	if p.constant {
		return p.value, 0
	}
	b := vals[p.slot]
	top := len(b) - 1 - p.lo
	for i := p.width - 1; i >= 0; i-- {
		v <<= 1
		x <<= 1
		switch b[top-i] {
		case '1', 'h':
			v |= 1
		case '0', 'l':
		default:
			x |= 1
		}
	}
	return v, x
}

// lane returns byte j (bits 8j+7..8j) of the probe and its x/z bits.
func (p probe) lane(vals [][]byte, j int) (v, x byte) {
	if p.constant {
		return byte(p.value >> (8 * j)), 0
	}
	q := p
	q.lo, q.width = p.lo+8*j, 8
	a, b := q.read(vals)
	return byte(a), byte(b)
}

// binder resolves references against a VCD header.
type binder struct {
	m    *Map
	h    *vcd.Header
	sigs []*vcd.Signal
}

// bind resolves a reference; maxWidth bounds its width (0: no bound).
func (b *binder) bind(r Ref, what string, maxWidth int) (probe, error) {
	if !r.IsSet() {
		return probe{}, nil
	}
	pr, err := parseRef(r, b.m.Scope)
	if err != nil {
		return probe{}, b.m.errAt(r.Line, "%s: %v", what, err)
	}
	if pr.constant {
		if maxWidth > 0 && maxWidth < 64 && pr.value>>maxWidth != 0 {
			return probe{}, b.m.errAt(r.Line, "%s: constant %s does not fit in %d bits", what, r.Text, maxWidth)
		}
		return probe{set: true, constant: true, value: pr.value, width: 64, name: r.Text}, nil
	}
	full := pr.name
	v := b.h.Var(full)
	if pr.sliced && v == nil {
		// The whole reference may be a declared name ("mem[3]") or a
		// declared range ("data[7:0]").
		v = b.h.Var(r.Text)
		if b.m.Scope != "" {
			v = b.h.Var(b.m.Scope + "." + r.Text)
		}
		if v != nil {
			pr.sliced = false
		}
	}
	if v == nil {
		return probe{}, b.m.errAt(r.Line, "%s: signal %s is not in the VCD", what, full)
	}
	if v.Signal.Real || v.Type.IsReal() {
		return probe{}, b.m.errAt(r.Line, "%s: signal %s is a real; map bit vectors", what, full)
	}
	w := v.Signal.Width
	p := probe{set: true, width: w, sigWidth: w, name: scoped(b.m.Scope, r.Text)}
	if pr.sliced {
		oa, okA := offsetOf(v, pr.msb)
		ob, okB := offsetOf(v, pr.lsb)
		if !okA || !okB {
			return probe{}, b.m.errAt(r.Line, "%s: slice [%d:%d] is outside %s%s (%d bits)", what, pr.msb, pr.lsb, full, v.Range, w)
		}
		p.lo, p.width = min(oa, ob), max(oa, ob)-min(oa, ob)+1
	}
	if maxWidth > 0 && p.width > maxWidth {
		return probe{}, b.m.errAt(r.Line, "%s: %s is %d bits wide, the field holds %d", what, p.name, p.width, maxWidth)
	}
	b.sigs = append(b.sigs, v.Signal)
	p.slot = len(b.sigs) - 1 // provisional: replaced by the sampler slot
	return p, nil
}

func scoped(scope, s string) string {
	if scope == "" {
		return s
	}
	return scope + "." + s
}

// offsetOf returns the offset from the least significant bit of declared
// bit index i of v.
func offsetOf(v *vcd.Var, i int) (int, bool) {
	w := v.Signal.Width
	msb, lsb, ok := v.MSBLSB()
	if !ok {
		msb, lsb = w-1, 0
	}
	var off int
	if msb >= lsb {
		off = i - lsb
	} else {
		off = lsb - i
	}
	return off, off >= 0 && off < w
}

// fix replaces provisional slots by the sampler's slots.
func (b *binder) fix(s *Sampler, ps ...*probe) {
	for _, p := range ps {
		if p.set && !p.constant {
			p.slot = s.slot(b.sigs[p.slot])
		}
	}
}

// bindOne binds a one-bit control signal.
func (b *binder) bindBit(r Ref, what string) (probe, error) {
	p, err := b.bind(r, what, 0)
	if err != nil || !p.set {
		return p, err
	}
	if p.width != 1 && !p.constant {
		return probe{}, b.m.errAt(r.Line, "%s: %s is %d bits; a control signal is one bit (slice it, e.g. %s[0])", what, p.name, p.width, r.Text)
	}
	if p.constant && p.value > 1 {
		return probe{}, fmt.Errorf("%s:%d: %s: constant %d is not 0 or 1", b.m.Name, r.Line, what, p.value)
	}
	return p, nil
}
