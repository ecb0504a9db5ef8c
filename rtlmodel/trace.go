package rtlmodel

import (
	"bufio"
	"io"
	"strconv"
)

// TraceSchema and TraceSchemaVersion name the JSON Lines transaction
// format written by TraceSink. The first line of a trace is a header
// {"schema":"fabricmodel.trace","version":1}; every other line is one
// transfer: {"t":send ps,"dom":domain,"cyc":sender cycle,"link":name,
// "from":path,"to":path,"arr":arrival ps,"item":rendered item}.
const (
	TraceSchema        = "fabricmodel.trace"
	TraceSchemaVersion = 1
)

// traceHeader is the first line of a trace.
func traceHeader() string {
	return `{"schema":"` + TraceSchema + `","version":` + strconv.Itoa(TraceSchemaVersion) + "}\n"
}

// TraceSink writes link transfers as JSON Lines. Attach it with Attach;
// call Flush at the end of the run. Output is deterministic.
type TraceSink struct {
	w   *bufio.Writer
	buf []byte
	n   uint64
	err error
}

// NewTraceSink returns a sink writing to w.
func NewTraceSink(w io.Writer) *TraceSink {
	s := &TraceSink{w: bufio.NewWriterSize(w, 1<<16)}
	_, s.err = s.w.WriteString(traceHeader())
	return s
}

// Attach registers the sink on an engine's hook bus.
func (s *TraceSink) Attach(e *Engine) { e.Hooks().OnTransfer(s.Write) }

// Write records one transfer.
func (s *TraceSink) Write(ev *TransferEvent) {
	if s.err != nil {
		return
	}
	s.buf = appendTraceLine(s.buf[:0], ev.Time, ev.Domain, ev.Cycle, ev.Link, ev.From, ev.To, ev.Arrive, ev.Item())
	_, s.err = s.w.Write(s.buf)
	s.n++
}

// appendTraceLine appends one transfer in the trace schema (TraceSchema).
func appendTraceLine(b []byte, t Time, dom string, cyc uint64, link, from, to string, arr Time, item string) []byte {
	b = append(b, `{"t":`...)
	b = strconv.AppendUint(b, uint64(t), 10)
	b = append(b, `,"dom":`...)
	b = appendJSONString(b, dom)
	b = append(b, `,"cyc":`...)
	b = strconv.AppendUint(b, cyc, 10)
	b = append(b, `,"link":`...)
	b = appendJSONString(b, link)
	b = append(b, `,"from":`...)
	b = appendJSONString(b, from)
	b = append(b, `,"to":`...)
	b = appendJSONString(b, to)
	b = append(b, `,"arr":`...)
	b = strconv.AppendUint(b, uint64(arr), 10)
	b = append(b, `,"item":`...)
	b = appendJSONString(b, item)
	return append(b, "}\n"...)
}

// Count returns the number of transfers written.
func (s *TraceSink) Count() uint64 { return s.n }

// Flush writes buffered lines and returns the first error seen.
func (s *TraceSink) Flush() error {
	if s.err != nil {
		return s.err
	}
	return s.w.Flush()
}

// appendJSONString appends s as a JSON string literal.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}
