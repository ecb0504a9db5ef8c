package main

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/fabricmodel/fabricmodel/fabric"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/urfave/cli/v2"
)

// flowTrace writes the frames of the --trace-flows flows to --trace's
// file as the run goes: after each step, what the run has recorded up to
// the time no later transfer can precede (rtlmodel.Engine.TraceComplete), so
// that it holds about a step's transfers and not the run's; and, for
// --pcap, their capture when the run ends.
type flowTrace struct {
	path string
	rec  *rtlmodel.TraceRecorder // nil without --trace
	f    *os.File
	err  error // the first error writing, after which it writes no more

	pcapPath string
	capture  *fabric.Capture // nil without --pcap
	pcap     *os.File
}

// traceFlowsFlag reads --trace-flows, before the model is built: the
// spans of flow IDs --trace and --pcap follow, or none when there is
// neither.
func traceFlowsFlag(c *cli.Context) ([]flowSpan, error) {
	if c.String("trace") == "" && c.String("pcap") == "" {
		if c.IsSet("trace-flows") {
			return nil, fmt.Errorf("--trace-flows %s: without --trace or --pcap there is no trace to write", c.String("trace-flows"))
		}
		return nil, nil
	}
	spans, err := parseFlowIDs(c.String("trace-flows"))
	if err != nil {
		return nil, fmt.Errorf("--trace-flows %s: %w", c.String("trace-flows"), err)
	}
	return spans, nil
}

// startTrace starts recording the frames of the flows of spans, as
// traceFlowsFlag read them, and creates --trace's and --pcap's files for
// those asked for; nil when neither is.
func startTrace(c *cli.Context, r *fabric.Run, spans []flowSpan) (*flowTrace, error) {
	path, pcapPath := c.String("trace"), c.String("pcap")
	if path == "" && pcapPath == "" {
		return nil, nil
	}
	ids, err := flowIDs(spans, len(r.Flows))
	if err != nil {
		if !c.IsSet("trace-flows") {
			// the flows are the default's, which the user did not choose
			return nil, fmt.Errorf("--%s: %w", firstSet(c, "trace", "pcap"), err)
		}
		return nil, fmt.Errorf("--trace-flows %s: %w", c.String("trace-flows"), err)
	}
	t := &flowTrace{path: path, pcapPath: pcapPath}
	if path != "" {
		if t.rec, err = r.TraceFlows(ids); err != nil {
			return nil, fmt.Errorf("--trace-flows %s: %w", c.String("trace-flows"), err)
		}
	}
	if pcapPath != "" {
		if t.capture, err = r.CaptureFlows(ids); err != nil {
			return nil, fmt.Errorf("--trace-flows %s: %w", c.String("trace-flows"), err)
		}
	}
	if path != "" {
		if t.f, err = os.Create(path); err != nil {
			return nil, outputError("trace", path, err)
		}
	}
	if pcapPath != "" {
		if t.pcap, err = os.Create(pcapPath); err != nil {
			t.abandon()
			return nil, outputError("pcap", pcapPath, err)
		}
	}
	return t, nil
}

// firstSet names the first of the flags given a value, with that value.
func firstSet(c *cli.Context, flags ...string) string {
	for _, f := range flags {
		if v := c.String(f); v != "" {
			return f + " " + v
		}
	}
	return flags[0]
}

// step writes what the run has recorded up to the time no later transfer
// can precede.
func (t *flowTrace) step(r *fabric.Run) {
	if t == nil || t.f == nil || t.err != nil {
		return
	}
	_, t.err = t.rec.WriteBefore(t.f, r.Cluster.Engine.TraceComplete())
}

// finish writes the rest of the trace and the capture and closes their
// files; it returns the first error of each, naming its file.
func (t *flowTrace) finish() error {
	if t == nil {
		return nil
	}
	var errs []error
	if t.f != nil {
		if t.err == nil {
			_, t.err = t.rec.WriteTo(t.f)
		}
		if err := t.f.Close(); t.err == nil {
			t.err = err
		}
		t.f = nil
		if t.err != nil {
			errs = append(errs, fmt.Errorf("--trace %s: %w", t.path, t.err))
		}
	}
	if t.pcap != nil {
		_, err := t.capture.WriteTo(t.pcap)
		if cerr := t.pcap.Close(); err == nil {
			err = cerr
		}
		t.pcap = nil
		if err != nil {
			errs = append(errs, fmt.Errorf("--pcap %s: %w", t.pcapPath, err))
		}
	}
	return errors.Join(errs...)
}

// close closes the files if finish has not: on the ways out before the
// run ends.
func (t *flowTrace) close() {
	if t == nil {
		return
	}
	if t.f != nil {
		t.f.Close()
		t.f = nil
	}
	if t.pcap != nil {
		t.pcap.Close()
		t.pcap = nil
	}
}

// abandon closes and removes the file, for the ways out before the run
// began: it holds nothing yet.
func (t *flowTrace) abandon() {
	if t == nil {
		return
	}
	trace, pcap := t.f != nil, t.pcap != nil
	t.close()
	if trace {
		os.Remove(t.path)
	}
	if pcap {
		os.Remove(t.pcapPath)
	}
}

// flowSpan is the flow IDs first to last, both included, of one entry
// of --trace-flows ("8-11", or "3" as 3-3).
type flowSpan struct{ first, last int }

// parseFlowIDs reads a comma-separated list of flow IDs and ranges
// ("0,3,8-11") as spans, in the order given. It lists no ID: a span may
// reach far beyond the run's flows, which flowIDs checks first.
func parseFlowIDs(s string) ([]flowSpan, error) {
	var spans []flowSpan
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		lo, hi, isRange := strings.Cut(part, "-")
		first, err := strconv.Atoi(lo)
		if err != nil || first < 0 {
			return nil, fmt.Errorf("%q is not a flow ID (IDs are whole numbers from 0, ranges as 4-7)", part)
		}
		last := first
		if isRange {
			if last, err = strconv.Atoi(hi); err != nil || last < first {
				return nil, fmt.Errorf("%q is not a range of flow IDs (from a lower ID to a higher, as 4-7)", part)
			}
		}
		spans = append(spans, flowSpan{first, last})
	}
	return spans, nil
}

// flowIDs lists the IDs of spans, in their order and without repeats,
// once it has checked that every span lies within the run's flows 0 to
// flows-1: the list is never longer than the run's flows.
func flowIDs(spans []flowSpan, flows int) ([]int, error) {
	if flows == 0 {
		return nil, fmt.Errorf("the run has no flows to trace")
	}
	for _, sp := range spans {
		if sp.last >= flows {
			return nil, fmt.Errorf("no flow %d (the run has flows 0 to %d)", max(sp.first, flows), flows-1)
		}
	}
	var ids []int
	seen := make([]bool, flows)
	for _, sp := range spans {
		// sp.last < flows: the count stops before it could wrap
		for id := sp.first; id <= sp.last; id++ {
			if !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
	}
	return ids, nil
}
