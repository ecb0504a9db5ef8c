package vcd

import (
	"math"
	"strconv"
)

// change applies one value change: kind is 'b' (bits), 'r' (real) or 's'
// (string).
func (r *Reader) change(line int, code []byte, kind byte, val []byte) (bool, error) {
	sig := r.lookup(code)
	if sig == nil {
		return false, r.errf(line, "unknown identifier code %q", clip(code))
	}
	v := &sig.val
	switch kind {
	case 'b':
		if msg := v.setBits(sig.Width, val); msg != "" {
			return false, r.errf(line, "%s", msg)
		}
	case 'r':
		f, ok := parseReal(val)
		if !ok {
			return false, r.errf(line, "bad real value %q", clip(val))
		}
		v.kind, v.real = ValueReal, f
	default:
		v.kind = ValueString
		v.str = append(v.str[:0], val...)
	}
	e := &r.ev
	e.Kind, e.Time, e.Signal, e.Section, e.Line, e.Text = EventChange, r.time, sig, r.section, line, ""
	e.Value = Value{kind: v.kind, bits: v.bits, real: v.real, str: v.str}
	return true, nil
}

// command handles a $keyword among the value changes.
func (r *Reader) command(line int, tok []byte) (bool, error) {
	var k EventKind
	switch string(tok) {
	case "$dumpvars":
		k = EventDumpVars
	case "$dumpoff":
		k = EventDumpOff
	case "$dumpon":
		k = EventDumpOn
	case "$dumpall":
		k = EventDumpAll
	case "$end":
		if r.section == 0 {
			return false, r.errf(line, "$end without an open section")
		}
		r.ev = Event{Kind: EventEndSection, Time: r.time, Section: r.section, Line: line}
		r.section = 0
		return true, nil
	case "$comment":
		text, err := r.body(line, "$comment")
		if err != nil {
			return false, err
		}
		r.ev = Event{Kind: EventComment, Time: r.time, Text: text, Section: r.section, Line: line}
		return true, nil
	default:
		// Other commands ($enddefinitions repeated, $attrbegin, vendor
		// extensions) are skipped with their bodies.
		_, err := r.body(line, string(tok))
		return false, err
	}
	if r.section != 0 {
		return false, r.errf(line, "%s inside an open %s section", tok, r.section)
	}
	r.section = k
	r.ev = Event{Kind: k, Time: r.time, Section: k, Line: line}
	return true, nil
}

// parseUint parses a decimal time without allocating.
func parseUint(b []byte) (uint64, bool) {
	if len(b) == 0 {
		return 0, false
	}
	var n uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		if n > (math.MaxUint64-9)/10 {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	return n, true
}

// parseReal parses the body of an r change.
func parseReal(b []byte) (float64, bool) {
	if len(b) == 0 || len(b) > 64 {
		return 0, false
	}
	var tmp [64]byte
	n := copy(tmp[:], b)
	f, err := strconv.ParseFloat(string(tmp[:n]), 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return f, true
		}
		return 0, false
	}
	return f, true
}
