package vcd

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// DefaultVersion is the $version text a Writer uses when none is given.
const DefaultVersion = "fabricmodel rtlmodel/vcd"

// WriterOptions configures NewWriter. The zero value is usable.
type WriterOptions struct {
	// Timescale is the duration of one time unit; the zero value means 1ps,
	// the resolution of the rtlmodel kernel.
	Timescale Timescale
	// Version is the $version text; empty means DefaultVersion.
	Version string
	// Date is the $date text. Empty leaves $date out so that output is
	// byte-for-byte reproducible.
	Date string
	// Comment, if not empty, is written as a $comment in the header.
	Comment string
	// BufferSize is the size of the output buffer; 0 means 64 KiB.
	BufferSize int
}

// Handle names a declared signal when setting its value.
type Handle int32

// signal kinds of the writer
const (
	wBits uint8 = iota
	wReal
	wEvent
)

// wsig is the writer's state of one signal.
type wsig struct {
	code  string
	width int
	kind  uint8
	known bool   // the value is all 0/1, width <= 64 and held in u
	u     uint64 // the value when known
	bits  []byte // the value, extended to width, when not known
	real  float64
}

// Writer writes a VCD file. Declare scopes and signals first, optionally set
// initial values, then call Time and set values. A Writer is not safe for
// concurrent use.
type Writer struct {
	bw        *bufio.Writer
	sigs      []wsig
	depth     int
	started   bool // $enddefinitions written
	dumped    bool // initial $dumpvars written
	closed    bool
	now       uint64 // current time
	written   uint64 // time of the last #time line written
	timeShown bool   // a #time line has been written
	buf       []byte
	tmp       []byte
}

// NewWriter writes the header ($date if asked for, $version, $comment,
// $timescale) to w through a buffer and returns the Writer.
func NewWriter(w io.Writer, opts WriterOptions) (*Writer, error) {
	ts := opts.Timescale
	if ts.IsZero() {
		ts = Timescale{Magnitude: 1, Unit: Picosecond}
	}
	if !ts.Valid() {
		return nil, fmt.Errorf("vcd: invalid timescale %v", ts)
	}
	size := opts.BufferSize
	if size <= 0 {
		size = 64 << 10
	}
	wr := &Writer{bw: bufio.NewWriterSize(w, size), buf: make([]byte, 0, 128)}
	if opts.Date != "" {
		wr.section("$date", opts.Date)
	}
	version := opts.Version
	if version == "" {
		version = DefaultVersion
	}
	wr.section("$version", version)
	if opts.Comment != "" {
		wr.section("$comment", opts.Comment)
	}
	fmt.Fprintf(wr.bw, "$timescale %s $end\n", ts)
	return wr, nil
}

func (w *Writer) section(cmd, body string) {
	body = strings.ReplaceAll(body, "$end", "$ end")
	fmt.Fprintf(w.bw, "%s\n\t%s\n$end\n", cmd, body)
}

func checkName(name string) error {
	if name == "" {
		return fmt.Errorf("vcd: empty name")
	}
	if strings.IndexFunc(name, func(r rune) bool { return r <= ' ' || r > '~' }) >= 0 {
		return fmt.Errorf("vcd: name %q holds a space or a non-printable character", name)
	}
	return nil
}

func (w *Writer) declaring() error {
	if w.closed {
		return ErrClosed
	}
	if w.started {
		return ErrDefinitionsEnded
	}
	return nil
}

// PushScope opens a scope inside the current one.
func (w *Writer) PushScope(typ ScopeType, name string) error {
	if err := w.declaring(); err != nil {
		return err
	}
	if err := checkName(name); err != nil {
		return err
	}
	if typ == ScopeOther {
		return fmt.Errorf("vcd: scope %q: no scope type", name)
	}
	w.depth++
	_, err := fmt.Fprintf(w.bw, "$scope %s %s $end\n", typ, name)
	return err
}

// PopScope closes the current scope.
func (w *Writer) PopScope() error {
	if err := w.declaring(); err != nil {
		return err
	}
	if w.depth == 0 {
		return fmt.Errorf("vcd: PopScope without an open scope")
	}
	w.depth--
	_, err := w.bw.WriteString("$upscope $end\n")
	return err
}

// Declare adds a variable of the given type and width in bits to the
// current scope and returns its handle. A multi-bit variable is written with
// the range [width-1:0] unless name already ends in a bit-select. Real
// variables take any width (64 is usual); event variables have width 1.
// Bit variables start as all x, reals as 0.
func (w *Writer) Declare(typ VarType, width int, name string) (Handle, error) {
	if err := w.declaring(); err != nil {
		return -1, err
	}
	if err := checkName(name); err != nil {
		return -1, err
	}
	if typ == VarOther {
		return -1, fmt.Errorf("vcd: variable %q: no variable type", name)
	}
	if width <= 0 || width > maxWidth {
		return -1, fmt.Errorf("vcd: variable %q: width %d out of range", name, width)
	}
	s := wsig{code: IdentCode(len(w.sigs)), width: width}
	switch {
	case typ.IsReal():
		s.kind = wReal
	case typ == VarEvent:
		if width != 1 {
			return -1, fmt.Errorf("vcd: event %q: width must be 1", name)
		}
		s.kind = wEvent
	default:
		s.bits = make([]byte, width)
		for i := range s.bits {
			s.bits[i] = 'x'
		}
	}
	w.sigs = append(w.sigs, s)
	h := Handle(len(w.sigs) - 1)
	return h, w.declareVar(typ, h, name)
}

// Alias declares another name, in the current scope, for the signal h: both
// names share one identifier code.
func (w *Writer) Alias(h Handle, typ VarType, name string) error {
	if err := w.declaring(); err != nil {
		return err
	}
	if uint(h) >= uint(len(w.sigs)) {
		return ErrBadHandle
	}
	if err := checkName(name); err != nil {
		return err
	}
	if typ == VarOther {
		return fmt.Errorf("vcd: variable %q: no variable type", name)
	}
	return w.declareVar(typ, h, name)
}

func (w *Writer) declareVar(typ VarType, h Handle, name string) error {
	s := &w.sigs[h]
	rng := ""
	if s.kind == wBits && s.width > 1 && !strings.HasSuffix(name, "]") {
		rng = " [" + strconv.Itoa(s.width-1) + ":0]"
	}
	_, err := fmt.Fprintf(w.bw, "$var %s %d %s %s%s $end\n", typ, s.width, s.code, name, rng)
	return err
}

// Code returns the identifier code of h as written in the file.
func (w *Writer) Code(h Handle) string {
	if uint(h) >= uint(len(w.sigs)) {
		return ""
	}
	return w.sigs[h].code
}

// EndDefinitions closes any open scopes and writes $enddefinitions. Time
// calls it when needed; call it directly to end the header of a file that
// has no value changes.
func (w *Writer) EndDefinitions() error {
	if w.closed {
		return ErrClosed
	}
	if w.started {
		return nil
	}
	for ; w.depth > 0; w.depth-- {
		w.bw.WriteString("$upscope $end\n")
	}
	w.started = true
	_, err := w.bw.WriteString("$enddefinitions $end\n")
	return err
}

// Time moves the current time to t. The first call also writes #t and a
// $dumpvars section with every signal's initial value. Later #time lines are
// written only when a value changes, so times without changes cost nothing.
// A time before the current one is an error.
func (w *Writer) Time(t uint64) error {
	if w.closed {
		return ErrClosed
	}
	if w.dumped && t < w.now {
		return fmt.Errorf("vcd: time %d is before the current time %d", t, w.now)
	}
	w.now = t
	if w.dumped {
		return nil
	}
	if err := w.EndDefinitions(); err != nil {
		return err
	}
	w.dumped = true
	if err := w.markTime(); err != nil {
		return err
	}
	w.bw.WriteString("$dumpvars\n")
	for i := range w.sigs {
		s := &w.sigs[i]
		if s.kind == wEvent {
			continue
		}
		if err := w.emit(s); err != nil {
			return err
		}
	}
	_, err := w.bw.WriteString("$end\n")
	return err
}

// Now returns the current time.
func (w *Writer) Now() uint64 { return w.now }

// markTime writes the #time line for the current time if it is not yet written.
func (w *Writer) markTime() error {
	if w.timeShown && w.written == w.now {
		return nil
	}
	w.timeShown, w.written = true, w.now
	b := append(w.buf[:0], '#')
	b = strconv.AppendUint(b, w.now, 10)
	b = append(b, '\n')
	w.buf = b
	_, err := w.bw.Write(b)
	return err
}

// Flush writes buffered data to the underlying writer; after Close it
// returns ErrClosed.
func (w *Writer) Flush() error {
	if w.closed {
		return ErrClosed
	}
	return w.bw.Flush()
}

// Close ends the header if no time was written, writes a final #time line
// if the current time moved past the last change (so readers see the end of
// the run), and flushes. It does not close the underlying writer.
func (w *Writer) Close() error {
	if w.closed {
		return ErrClosed
	}
	err := w.EndDefinitions()
	if err == nil && w.dumped {
		err = w.markTime()
	}
	if ferr := w.bw.Flush(); err == nil {
		err = ferr
	}
	w.closed = true
	return err
}
