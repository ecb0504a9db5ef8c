package rtlmodel

import (
	"bufio"
	"cmp"
	"fmt"
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
//
// A long run need not keep its whole trace: WriteBefore, called between
// runs of the engine, writes and forgets the transfers sent before a time
// no later transfer can precede, so the recorder holds only those since.
type TraceRecorder struct {
	keep func(*TransferEvent) bool
	recs []traceRecord // kept and not written yet
	kept int           // kept in all

	headed  bool // the header line is written
	upTo    Time // every transfer kept before it is written
	late    int  // transfers kept after the trace was written past their time
	lateAt  Time // the send time of the first of them
	lateSaw Time // the time the trace had been written up to then
	line    []byte
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
	if ev.Time < r.upTo {
		if r.late == 0 {
			r.lateAt, r.lateSaw = ev.Time, r.upTo
		}
		r.late++
	}
	r.kept++
	r.recs = append(r.recs, traceRecord{t: ev.Time, arr: ev.Arrive, cyc: ev.Cycle, dom: ev.Domain,
		link: ev.Link, from: ev.From, to: ev.To, item: ev.Item()})
}

// Len returns the number of transfers kept, written or not.
func (r *TraceRecorder) Len() int { return r.kept }

// Pending returns the number of transfers kept and not written yet.
func (r *TraceRecorder) Pending() int { return len(r.recs) }

// WriteBefore writes to w the header line, the first time, and the kept
// transfers sent before t, in order, and forgets them; it returns the
// bytes w took and the first error. Call it between runs of the engine,
// with a t no later than any transfer still to come can be sent at
// (Engine.TraceComplete: the engine's time, less the latency of the
// stages whose hand-offs their hosts report late). A transfer that comes later still is kept and written
// after its time, and WriteTo reports it. Successive calls write to the
// same trace: pass the same w.
func (r *TraceRecorder) WriteBefore(w io.Writer, t Time) (int64, error) {
	r.sort()
	n, _ := slices.BinarySearchFunc(r.recs, t, func(rec traceRecord, t Time) int { return cmp.Compare(rec.t, t) })
	written, err := r.write(w, r.recs[:n])
	if err != nil {
		return written, err
	}
	rest := copy(r.recs, r.recs[n:])
	clear(r.recs[rest:])
	r.recs = r.recs[:rest]
	r.upTo = max(r.upTo, t)
	return written, nil
}

// WriteTo writes the header line, unless WriteBefore wrote it, and the
// kept transfers not written yet, in order; it returns the bytes w took
// and the first error. Transfers kept after WriteBefore had written past
// their time are written, where they fell, and reported as an error.
func (r *TraceRecorder) WriteTo(w io.Writer) (int64, error) {
	r.sort()
	n, err := r.write(w, r.recs)
	if err != nil {
		return n, err
	}
	clear(r.recs)
	r.recs = r.recs[:0]
	if r.late > 0 {
		return n, fmt.Errorf("trace: %d transfers came after the trace was written up to %v, the first sent at %v: they are out of order",
			r.late, r.lateSaw, r.lateAt)
	}
	return n, nil
}

func (r *TraceRecorder) sort() {
	slices.SortFunc(r.recs, func(a, b traceRecord) int {
		return cmp.Or(cmp.Compare(a.t, b.t), cmp.Compare(a.link, b.link), cmp.Compare(a.arr, b.arr),
			cmp.Compare(a.item, b.item), cmp.Compare(a.from, b.from), cmp.Compare(a.to, b.to),
			cmp.Compare(a.dom, b.dom), cmp.Compare(a.cyc, b.cyc))
	})
}

// write writes the header line, the first time, and recs.
func (r *TraceRecorder) write(w io.Writer, recs []traceRecord) (int64, error) {
	cw := &countingWriter{w: w}
	bw := bufio.NewWriterSize(cw, 1<<16)
	var err error
	if !r.headed {
		_, err = bw.WriteString(traceHeader())
	}
	for _, rec := range recs {
		if err != nil {
			break
		}
		r.line = appendTraceLine(r.line[:0], rec.t, rec.dom, rec.cyc, rec.link, rec.from, rec.to, rec.arr, rec.item)
		_, err = bw.Write(r.line)
	}
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		r.headed = true
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
