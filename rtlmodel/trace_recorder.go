package rtlmodel

import (
	"bufio"
	"cmp"
	"io"
	"slices"
)

// TraceRecorder keeps the link transfers a filter selects and writes them
// as a trace (TraceSchema) in the order of the transfers themselves: by
// send time, then link, arrival, item, sender, receiver, domain and cycle.
// A TraceSink writes transfers as the hooks see them, and a partitioned
// run shows them partition by partition (each runs a window ahead of the
// others); the recorder's trace is the same for the partitioned run and
// the lockstep run of one model. Each kept item is rendered when it is
// sent, since models recycle what they send (packet descriptors go back
// to a pool). It is for following a few chosen items through a large
// model, whose whole trace a TraceSink would write.
type TraceRecorder struct {
	keep func(*TransferEvent) bool
	recs []traceRecord
}

// traceRecord is one kept transfer, its item rendered.
type traceRecord struct {
	t, arr          Time
	cyc             uint64
	dom, link, from string
	to, item        string
}

// NewTraceRecorder returns a recorder keeping the transfers for which
// keep reports true (every transfer when keep is nil).
func NewTraceRecorder(keep func(*TransferEvent) bool) *TraceRecorder {
	return &TraceRecorder{keep: keep}
}

// Attach registers the recorder on an engine's hook bus; call it before
// the run.
func (r *TraceRecorder) Attach(e *Engine) { e.Hooks().OnTransfer(r.record) }

func (r *TraceRecorder) record(ev *TransferEvent) {
	if r.keep != nil && !r.keep(ev) {
		return
	}
	r.recs = append(r.recs, traceRecord{t: ev.Time, arr: ev.Arrive, cyc: ev.Cycle, dom: ev.Domain,
		link: ev.Link, from: ev.From, to: ev.To, item: ev.Item()})
}

// Len returns the number of transfers kept.
func (r *TraceRecorder) Len() int { return len(r.recs) }

// WriteTo writes the header line and the kept transfers in order; it
// returns the bytes w took and the first error.
func (r *TraceRecorder) WriteTo(w io.Writer) (int64, error) {
	slices.SortFunc(r.recs, func(a, b traceRecord) int {
		return cmp.Or(cmp.Compare(a.t, b.t), cmp.Compare(a.link, b.link), cmp.Compare(a.arr, b.arr),
			cmp.Compare(a.item, b.item), cmp.Compare(a.from, b.from), cmp.Compare(a.to, b.to),
			cmp.Compare(a.dom, b.dom), cmp.Compare(a.cyc, b.cyc))
	})
	cw := &countingWriter{w: w}
	bw := bufio.NewWriterSize(cw, 1<<16)
	_, err := bw.WriteString(traceHeader())
	var line []byte
	for _, rec := range r.recs {
		if err != nil {
			break
		}
		line = appendTraceLine(line[:0], rec.t, rec.dom, rec.cyc, rec.link, rec.from, rec.to, rec.arr, rec.item)
		_, err = bw.Write(line)
	}
	if err == nil {
		err = bw.Flush()
	}
	return cw.n, err
}

// countingWriter counts the bytes its writer takes.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n += int64(n)
	return n, err
}
