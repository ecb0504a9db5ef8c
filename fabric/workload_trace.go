package fabric

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/fabricmodel/fabricmodel/nic400g"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// traceColumns are the columns a flow trace must have, in its header, in
// any order.
var traceColumns = []string{"src", "dst", "bytes", "start_ns"}

// traceOpColumn is the column a flow trace may have besides: the flow's
// operation, write when it has none.
const traceOpColumn = "op"

// ReadTraceCSV reads flows from CSV: a header naming the columns src, dst,
// bytes and start_ns and, if it likes, op (any order, case and
// surrounding spaces ignored; no other columns), then one flow per row:
// source and destination endpoint (the data goes from src to dst),
// message bytes (1 to 4 GiB − 1), start time in nanoseconds (up to
// 10 s) and the operation, write, send or read (an RDMA READ that dst
// posts; empty or no column: write). A UTF-8 byte order mark before the
// header is skipped. Lines starting with # are comments. Flows get IDs
// in row order and no dependencies. An error about a line is a
// *TraceLineError (1 is the header; comment lines count). Endpoints are
// TopologyConfig ids (FACTS 5.3); times become picoseconds.
func ReadTraceCSV(r io.Reader) ([]Flow, error) {
	flows, _, err := readTraceCSV(r)
	return flows, err
}

// readTraceCSV is ReadTraceCSV that also returns each flow's line.
func readTraceCSV(r io.Reader) (flows []Flow, lines []int, err error) {
	// a UTF-8 byte order mark, which some editors write, is no part of
	// the first column's name
	br := bufio.NewReader(r)
	if bom, err := br.Peek(3); err == nil && string(bom) == "\ufeff" {
		_, _ = br.Discard(3)
	}
	cr := csv.NewReader(br)
	cr.Comment = '#'
	cr.ReuseRecord = true
	head, err := cr.Read()
	if err == io.EOF {
		return nil, nil, &TraceLineError{Line: 1, Err: fmt.Errorf("the trace is empty; it needs the header %s", strings.Join(traceColumns, ","))}
	}
	if err != nil {
		return nil, nil, traceErr(err)
	}
	line, _ := cr.FieldPos(0)
	col := map[string]int{}
	for i, h := range head {
		name := strings.ToLower(strings.TrimSpace(h))
		if !slices.Contains(traceColumns, name) && name != traceOpColumn {
			return nil, nil, traceLine(line, "unknown column %q (want %s, and op if you like)", h, strings.Join(traceColumns, ","))
		}
		if _, dup := col[name]; dup {
			return nil, nil, traceLine(line, "column %q appears twice", name)
		}
		col[name] = i
	}
	for _, c := range traceColumns {
		if _, ok := col[c]; !ok {
			return nil, nil, traceLine(line, "the header has no %q column", c)
		}
	}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return flows, lines, nil
		}
		if err != nil {
			return nil, nil, traceErr(err)
		}
		line, _ = cr.FieldPos(0)
		var v [4]uint64
		for k, c := range traceColumns {
			s := strings.TrimSpace(rec[col[c]])
			if v[k], err = strconv.ParseUint(s, 10, 64); err != nil {
				return nil, nil, traceLine(line, "%s %q is not a whole number", c, s)
			}
		}
		src, dst, bytes, ns := v[0], v[1], v[2], v[3]
		var op nic400g.Op
		if c, ok := col[traceOpColumn]; ok {
			if s := strings.ToLower(strings.TrimSpace(rec[c])); s != "" {
				if op, err = nic400g.ParseOp(s); err != nil {
					return nil, nil, traceLine(line, "%w", err)
				}
			}
		}
		switch {
		case src > math.MaxInt32 || dst > math.MaxInt32:
			return nil, nil, traceLine(line, "endpoint beyond %d", math.MaxInt32)
		case src == dst:
			return nil, nil, traceLine(line, "src and dst are both %d", src)
		case bytes == 0:
			return nil, nil, traceLine(line, "bytes must be at least 1")
		case bytes > maxFlowBytes:
			return nil, nil, traceLine(line, "bytes %d: at most %d (%s)", bytes, uint64(maxFlowBytes), flowBytesBound)
		case ns > maxScenarioUS*1000:
			return nil, nil, traceLine(line, "start_ns %d: at most %d (10 s of simulated time)", ns, uint64(maxScenarioUS*1000))
		}
		flows = append(flows, Flow{ID: len(flows), Src: int(src), Dst: int(dst), Bytes: bytes,
			Start: rtlmodel.Time(ns) * rtlmodel.Nanosecond, Op: op})
		lines = append(lines, line)
	}
}

// TraceLineError is an error about one line of a flow trace (1 is the
// header; comment lines count). Its text names the line; a run that read
// the trace from a file puts the file's name in front of it as
// "file.csv:3: ..." instead.
type TraceLineError struct {
	Line int
	Err  error
}

func (e *TraceLineError) Error() string {
	return fmt.Sprintf("fabric: trace line %d: %v", e.Line, e.Err)
}
func (e *TraceLineError) Unwrap() error { return e.Err }

// traceLine is a TraceLineError at line, its message formatted.
func traceLine(line int, format string, args ...any) error {
	return &TraceLineError{Line: line, Err: fmt.Errorf(format, args...)}
}

// traceErr turns a CSV syntax error into one that names the line.
func traceErr(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &TraceLineError{Line: pe.Line, Err: pe.Err}
	}
	return fmt.Errorf("fabric: trace: %w", err)
}

// WriteTraceCSV writes flows in the format ReadTraceCSV reads (start
// times rounded down to the nanosecond; IDs, dependencies and jobs are not
// part of the format), with an op column when a flow is not a write.
func WriteTraceCSV(w io.Writer, flows []Flow) error {
	cw := csv.NewWriter(w)
	ops := slices.ContainsFunc(flows, func(f Flow) bool { return f.Op != nic400g.OpWrite })
	head := traceColumns
	if ops {
		head = append(slices.Clip(head), traceOpColumn)
	}
	if err := cw.Write(head); err != nil {
		return err
	}
	for _, f := range flows {
		rec := []string{strconv.Itoa(f.Src), strconv.Itoa(f.Dst), strconv.FormatUint(f.Bytes, 10),
			strconv.FormatUint(uint64(f.Start/rtlmodel.Nanosecond), 10)}
		if ops {
			rec = append(rec, f.Op.String())
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
