package vcd

import (
	"bytes"
	"fmt"
	"math"
	"math/bits"
	"strconv"
)

func (w *Writer) sig(h Handle, kind uint8) (*wsig, error) {
	if w.closed {
		return nil, ErrClosed
	}
	if uint(h) >= uint(len(w.sigs)) {
		return nil, ErrBadHandle
	}
	s := &w.sigs[h]
	if s.kind != kind {
		return nil, fmt.Errorf("vcd: signal %q has the wrong kind for this value", s.code)
	}
	return s, nil
}

// SetUint64 sets a bit signal to v. Before the first Time call it sets the
// initial value written in $dumpvars; afterwards it writes a change at the
// current time if v differs from the current value. Bits of v above the
// signal's width must be zero. It does not allocate.
func (w *Writer) SetUint64(h Handle, v uint64) error {
	s, err := w.sig(h, wBits)
	if err != nil {
		return err
	}
	if s.width < 64 && v>>uint(s.width) != 0 {
		return fmt.Errorf("vcd: value %#x does not fit the %d-bit signal %q", v, s.width, s.code)
	}
	if s.width > 64 {
		tmp := w.tmp[:0]
		for i := s.width - 1; i >= 0; i-- {
			if i < 64 && v>>uint(i)&1 == 1 {
				tmp = append(tmp, '1')
			} else {
				tmp = append(tmp, '0')
			}
		}
		w.tmp = tmp
		return w.setWide(s, tmp)
	}
	if s.known && s.u == v {
		return nil
	}
	s.known, s.u = true, v
	return w.changed(s)
}

// SetBool sets a bit signal to 1 (true) or 0 (false); see SetUint64.
func (w *Writer) SetBool(h Handle, v bool) error {
	var u uint64
	if v {
		u = 1
	}
	return w.SetUint64(h, u)
}

// SetBits sets a bit signal from a string of '0', '1', 'x' and 'z' (either
// case), most significant bit first. A string shorter than the signal is
// extended on the left as the standard says (1 extends with 0; 0, x and z
// with themselves); a longer one may only add leading zeros.
func (w *Writer) SetBits(h Handle, v string) error { return setBits(w, h, v) }

// SetBitsBytes is SetBits for a byte slice.
func (w *Writer) SetBitsBytes(h Handle, v []byte) error { return setBits(w, h, v) }

var bit4 = func() (t [256]byte) {
	for _, c := range "01xz" {
		t[c] = byte(c)
	}
	t['X'], t['Z'] = 'x', 'z'
	return t
}()

func setBits[T string | []byte](w *Writer, h Handle, v T) error {
	s, err := w.sig(h, wBits)
	if err != nil {
		return err
	}
	if len(v) == 0 {
		return fmt.Errorf("vcd: empty value for signal %q", s.code)
	}
	if len(v) > s.width {
		for i := 0; i < len(v)-s.width; i++ {
			if v[i] != '0' {
				return fmt.Errorf("vcd: value of %d bits does not fit the %d-bit signal %q", len(v), s.width, s.code)
			}
		}
		v = v[len(v)-s.width:]
	}
	first := bit4[v[0]]
	if first == 0 {
		return fmt.Errorf("vcd: invalid value character %q for signal %q", v[0], s.code)
	}
	tmp := w.tmp[:0]
	fill := extendWith(first)
	for i := len(v); i < s.width; i++ {
		tmp = append(tmp, fill)
	}
	known := true
	var u uint64
	for i := 0; i < len(v); i++ {
		c := bit4[v[i]]
		switch c {
		case 0:
			return fmt.Errorf("vcd: invalid value character %q for signal %q", v[i], s.code)
		case 'x', 'z':
			known = false
		}
		u = u<<1 | uint64(c&1)
		tmp = append(tmp, c)
	}
	w.tmp = tmp
	if s.width <= 64 && known {
		if s.known && s.u == u {
			return nil
		}
		s.known, s.u = true, u
		return w.changed(s)
	}
	return w.setWide(s, tmp)
}

// setWide stores an extended bit string that is wider than 64 bits or
// holds x or z.
func (w *Writer) setWide(s *wsig, tmp []byte) error {
	if !s.known && bytes.Equal(s.bits, tmp) {
		return nil
	}
	s.known = false
	s.bits = append(s.bits[:0], tmp...)
	return w.changed(s)
}

// SetReal sets a real signal to f; see SetUint64 for when it is written.
func (w *Writer) SetReal(h Handle, f float64) error {
	s, err := w.sig(h, wReal)
	if err != nil {
		return err
	}
	if math.Float64bits(s.real) == math.Float64bits(f) {
		return nil
	}
	s.real = f
	return w.changed(s)
}

// Trigger writes an occurrence of an event variable at the current time.
func (w *Writer) Trigger(h Handle) error {
	s, err := w.sig(h, wEvent)
	if err != nil {
		return err
	}
	if !w.dumped {
		return fmt.Errorf("vcd: Trigger of %q before the first Time", s.code)
	}
	if err := w.markTime(); err != nil {
		return err
	}
	b := append(w.buf[:0], '1')
	b = append(b, s.code...)
	b = append(b, '\n')
	w.buf = b
	_, err = w.bw.Write(b)
	return err
}

// changed writes s under the current time, once the initial $dumpvars is out.
func (w *Writer) changed(s *wsig) error {
	if !w.dumped {
		return nil
	}
	if err := w.markTime(); err != nil {
		return err
	}
	return w.emit(s)
}

// emit writes the current value of s as one line.
func (w *Writer) emit(s *wsig) error {
	b := w.buf[:0]
	switch {
	case s.kind == wReal:
		b = append(b, 'r')
		b = strconv.AppendFloat(b, s.real, 'g', -1, 64)
		b = append(b, ' ')
	case s.known && s.width == 1:
		b = append(b, '0'+byte(s.u))
	case s.known:
		b = append(b, 'b')
		if s.u == 0 {
			b = append(b, '0')
		}
		for i := bits.Len64(s.u) - 1; i >= 0; i-- {
			b = append(b, '0'+byte(s.u>>uint(i)&1))
		}
		b = append(b, ' ')
	case s.width == 1:
		b = append(b, s.bits[0])
	default:
		b = append(b, 'b')
		b = append(b, compress(s.bits)...)
		b = append(b, ' ')
	}
	b = append(b, s.code...)
	b = append(b, '\n')
	w.buf = b
	_, err := w.bw.Write(b)
	return err
}

// compress drops leading characters that left-extension restores: a 0
// before a 0 or 1, an x before an x, a z before a z.
func compress(v []byte) []byte {
	i := 0
	for i+1 < len(v) {
		c, d := v[i], v[i+1]
		if (c == '0' && (d == '0' || d == '1')) || (c == d && (c == 'x' || c == 'z')) {
			i++
			continue
		}
		break
	}
	return v[i:]
}
