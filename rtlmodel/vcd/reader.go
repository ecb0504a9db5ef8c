package vcd

import (
	"io"
	"iter"
	"strconv"
)

// EventKind says what an Event reports.
type EventKind uint8

// The events a Reader returns.
const (
	// EventTime: simulation time advanced to Event.Time (a #time line).
	EventTime EventKind = iota + 1
	// EventChange: Event.Signal took Event.Value.
	EventChange
	// EventDumpVars: a $dumpvars section starts.
	EventDumpVars
	// EventDumpOff: a $dumpoff section starts (values become unknown).
	EventDumpOff
	// EventDumpOn: a $dumpon section starts.
	EventDumpOn
	// EventDumpAll: a $dumpall section starts.
	EventDumpAll
	// EventEndSection: the $end closing the section named by Event.Section.
	EventEndSection
	// EventComment: a $comment among the value changes; Event.Text holds it.
	EventComment
)

var eventNames = [...]string{"", "time", "change", "$dumpvars", "$dumpoff", "$dumpon", "$dumpall", "$end", "$comment"}

// String names the event kind.
func (k EventKind) String() string {
	if int(k) < len(eventNames) && k != 0 {
		return eventNames[k]
	}
	return "EventKind(" + strconv.Itoa(int(k)) + ")"
}

// Event is one step of a VCD body.
type Event struct {
	// Kind says what happened.
	Kind EventKind
	// Time is the current simulation time in timescale units.
	Time uint64
	// Signal is the signal that changed (EventChange only).
	Signal *Signal
	// Value is the signal's new value (EventChange only); see Signal.Value.
	Value Value
	// Section is the open $dump section (EventDumpVars ... EventDumpAll) for
	// changes inside one and for EventEndSection; 0 otherwise.
	Section EventKind
	// Text is the body of a $comment (EventComment only).
	Text string
	// Line is the line the event starts on.
	Line int
}

// ReaderOption configures NewReader.
type ReaderOption func(*Reader)

// WithName names the input (usually its file name) in error messages.
func WithName(name string) ReaderOption { return func(r *Reader) { r.name = name } }

// WithMaxTokenLen bounds the longest token (a vector value, a name) the
// reader accepts, and with it the reader's buffer; the default is 64 MiB
// and values below 64 KiB are raised to 64 KiB.
func WithMaxTokenLen(n int) ReaderOption {
	return func(r *Reader) {
		if n > 0 {
			r.sc.maxTok = max(n, defaultBufSize)
		}
	}
}

// Reader streams a VCD file: NewReader parses the definitions, Next returns
// the body one event at a time. Memory stays bounded by the number of
// signals and the longest token, whatever the length of the file.
type Reader struct {
	sc      *scanner
	name    string
	h       *Header
	time    uint64
	section EventKind
	err     error
	fast    []*Signal
	valBuf  []byte
	ev      Event
	scalar  [1]byte
}

// fastCodes is the number of one- and two-character identifier codes.
const fastCodes = identBase + identBase*identBase

// NewReader reads the definitions of a VCD file from r, up to and including
// $enddefinitions, and returns a Reader positioned at the first value
// change. It reads r through its own buffer; wrapping r in a bufio.Reader
// is not needed.
func NewReader(r io.Reader, opts ...ReaderOption) (*Reader, error) {
	rd := &Reader{sc: newScanner(r, defaultMaxTokenLen), fast: make([]*Signal, fastCodes)}
	for _, o := range opts {
		o(rd)
	}
	if err := rd.parseHeader(); err != nil {
		return nil, err
	}
	return rd, nil
}

// ReadHeader reads only the definitions of a VCD file.
func ReadHeader(r io.Reader, opts ...ReaderOption) (*Header, error) {
	rd, err := NewReader(r, opts...)
	if err != nil {
		return nil, err
	}
	return rd.Header(), nil
}

// Header returns the definitions read by NewReader.
func (r *Reader) Header() *Header { return r.h }

// Time returns the current simulation time.
func (r *Reader) Time() uint64 { return r.time }

// Line returns the line of the last token read.
func (r *Reader) Line() int { return r.sc.tok }

func fastIndex(code []byte) int {
	switch len(code) {
	case 1:
		c := int(code[0]) - identFirst
		if c >= 0 && c < identBase {
			return c
		}
	case 2:
		c0, c1 := int(code[0])-identFirst, int(code[1])-identFirst
		if c0 >= 0 && c0 < identBase && c1 >= 0 && c1 < identBase {
			return identBase + c0*identBase + c1
		}
	}
	return -1
}

func (r *Reader) addFast(s *Signal) {
	if i := fastIndex([]byte(s.Code)); i >= 0 {
		r.fast[i] = s
	}
}

func (r *Reader) lookup(code []byte) *Signal {
	if i := fastIndex(code); i >= 0 {
		return r.fast[i]
	}
	return r.h.byCode[string(code)]
}

// Next returns the next event, or io.EOF after the last one. After any
// other error the Reader is spent and keeps returning that error.
func (r *Reader) Next() (Event, error) {
	for r.err == nil {
		ok, err := r.step()
		if err != nil {
			r.err = err
			break
		}
		if ok {
			return r.ev, nil
		}
	}
	return Event{}, r.err
}

// All returns an iterator over the remaining events. It stops at the end
// of the input, or after yielding the first error.
func (r *Reader) All() iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		for {
			ev, err := r.Next()
			if err == io.EOF {
				return
			}
			if !yield(ev, err) || err != nil {
				return
			}
		}
	}
}

// step reads one token's worth of body into r.ev; it returns false after
// skipping an unknown command.
func (r *Reader) step() (bool, error) {
	tok, err := r.token()
	if err != nil {
		return false, err
	}
	if tok == nil {
		return false, io.EOF
	}
	line := r.sc.tok
	c := tok[0]
	if bitCanon[c] != 0 {
		if len(tok) < 2 {
			return false, r.errf(line, "value %q without an identifier code", clip(tok))
		}
		r.scalar[0] = c
		return r.change(line, tok[1:], 'b', r.scalar[:])
	}
	switch c {
	case '#':
		t, ok := parseUint(tok[1:])
		if !ok {
			return false, r.errf(line, "bad time %q", clip(tok))
		}
		if t < r.time {
			return false, r.errf(line, "time %d goes back from %d", t, r.time)
		}
		r.time = t
		r.ev = Event{Kind: EventTime, Time: t, Line: line, Section: r.section}
		return true, nil
	case 'b', 'B', 'r', 'R', 's', 'S':
		// Reading the code may move the buffer under the value: copy it.
		r.valBuf = append(r.valBuf[:0], tok[1:]...)
		code, err := r.token()
		if err != nil {
			return false, err
		}
		if code == nil || isKeyword(code) || string(code) == "$end" {
			return false, r.errf(line, "value %q without an identifier code", clip(tok))
		}
		return r.change(line, code, c|0x20, r.valBuf)
	case '$':
		return r.command(line, tok)
	}
	return false, r.errf(line, "unexpected %q among the value changes", clip(tok))
}
