package verify

import (
	"fmt"
	"strings"
)

// PortKind says how a port carries its transactions.
type PortKind uint8

// The kinds of port.
const (
	// Beat ports carry one transaction per valid cycle, one signal per field.
	Beat PortKind = iota + 1
	// Frame ports carry one transaction per AXI-Stream frame: the bytes of
	// every beat (lane 0 of tdata first, lanes whose tkeep bit is clear
	// left out) up to and including the beat with tlast.
	Frame
)

// String names the kind as the signal map writes it.
func (k PortKind) String() string {
	switch k {
	case Beat:
		return "beat"
	case Frame:
		return "frame"
	}
	return fmt.Sprintf("PortKind(%d)", uint8(k))
}

// FieldSpec is one field of a port: a name, a width of 1 to 64 bits and
// what it means.
type FieldSpec struct {
	// Name is the field's name in signal maps, vectors and reports.
	Name string
	// Width is the number of bits, 1 to 64.
	Width int
	// Doc says what the field holds.
	Doc string
}

// PortSpec is the transaction format of one side of a block.
type PortSpec struct {
	// Kind is Beat or Frame.
	Kind PortKind
	// Fields are the fields of a beat port, in packing order (the first
	// field is the most significant in hex vectors). Frame ports have none.
	Fields []FieldSpec
	// Doc describes the transaction (for frames: what the bytes are).
	Doc string
}

// field returns the index of the named field, or -1.
func (p *PortSpec) field(name string) int {
	for i, f := range p.Fields {
		if f.Name == name {
			return i
		}
	}
	return -1
}

// Txn is one transaction: the field values of a beat, or the bytes of a
// frame, with the cycle and time at which it was sampled (for an input
// frame, its last beat).
type Txn struct {
	// Cycle is the index of the clock edge, counting from the first edge.
	Cycle uint64
	// Time is the VCD time of that edge, in timescale units.
	Time uint64
	// Fields holds the field values in PortSpec order.
	Fields []uint64
	// X marks, per field, the bits that were x or z; nil when none were.
	X []uint64
	// Data holds the bytes of a frame.
	Data []byte
	// DataX marks, per byte of Data, the bits that were x or z; nil when
	// none were.
	DataX []byte
	// User is the OR of tuser over the frame's beats (input frames only).
	User uint64
}

// hasX reports whether any bit of the transaction was x or z.
func (t *Txn) hasX() bool {
	for _, x := range t.X {
		if x != 0 {
			return true
		}
	}
	for _, x := range t.DataX {
		if x != 0 {
			return true
		}
	}
	return false
}

// hexDigits formats v with its x bits as 'x' nibbles, in width bits.
func hexDigits(v, x uint64, width int) string {
	n := max((width+3)/4, 1)
	var b strings.Builder
	b.WriteString("0x")
	for i := n - 1; i >= 0; i-- {
		if (x>>(4*i))&0xf != 0 {
			b.WriteByte('x')
			continue
		}
		b.WriteByte("0123456789abcdef"[(v>>(4*i))&0xf])
	}
	return b.String()
}

// formatTxn writes a transaction as "a=0x1 b=0x2" or "len=N data=...".
func formatTxn(p *PortSpec, t *Txn) string {
	if p.Kind == Frame {
		return formatFrame(t.Data, t.DataX)
	}
	var b strings.Builder
	for i, f := range p.Fields {
		if i > 0 {
			b.WriteByte(' ')
		}
		var v, x uint64
		if i < len(t.Fields) {
			v = t.Fields[i]
		}
		if i < len(t.X) {
			x = t.X[i]
		}
		b.WriteString(f.Name)
		b.WriteByte('=')
		b.WriteString(hexDigits(v, x, f.Width))
	}
	return b.String()
}

// formatFrame shows a frame's length and its first bytes.
func formatFrame(data, x []byte) string {
	const show = 8
	var b strings.Builder
	fmt.Fprintf(&b, "len=%d data=", len(data))
	for i, c := range data {
		if i == show {
			b.WriteString("...")
			break
		}
		if i < len(x) && x[i] != 0 {
			b.WriteString("xx")
			continue
		}
		fmt.Fprintf(&b, "%02x", c)
	}
	return b.String()
}
