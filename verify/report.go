package verify

import (
	"fmt"
	"io"
	"strings"
)

// The kinds of Divergence.
const (
	// KindMismatch: an output field or frame differs from the expected one.
	KindMismatch = "mismatch"
	// KindX: an output carries x or z in a compared bit.
	KindX = "x"
	// KindMissing: an expected output did not appear by its last cycle.
	KindMissing = "missing"
	// KindUnexpected: an output appeared that nothing expected.
	KindUnexpected = "unexpected"
	// KindEarly: an output appeared before its input could produce it.
	KindEarly = "early"
	// KindXInput: x or z on a control signal, or on an input being transferred.
	KindXInput = "x-input"
	// KindModel: the golden model rejected an input transaction.
	KindModel = "model"
)

// Divergence is the first disagreement between the RTL and the golden model.
type Divergence struct {
	// Kind is one of the Kind constants.
	Kind string
	// Cycle is the clock edge at which it was found, counting from 0.
	Cycle uint64
	// Time is the VCD time of that edge, in timescale units.
	Time uint64
	// TimeText is Time with its unit ("1235ns").
	TimeText string
	// Signal is the RTL signal involved, as mapped.
	Signal string
	// Field is the output field, when one differs.
	Field string
	// Expected and Got are the model's and the RTL's values.
	Expected, Got string
	// Detail adds what the values alone do not say.
	Detail string
	// Window lists the cycles around the divergence, with both sides.
	Window []Row
}

// Row is one cycle of the window around a divergence.
type Row struct {
	// Cycle and Time locate the edge; TimeText is Time with its unit.
	Cycle, Time uint64
	TimeText    string
	// Reset is true when the reset was active at the edge.
	Reset bool
	// Input is the input transaction completed at this edge, if any.
	Input string
	// Expected lists the model's outputs due at this edge.
	Expected []string
	// Observed is the RTL's output at this edge, if any.
	Observed string
	// Here marks the divergence's cycle.
	Here bool
}

// Result is the outcome of checking one trace.
type Result struct {
	// Block is the golden model's name.
	Block string
	// Mode is the scoreboard mode.
	Mode string
	// Cycles counts the active edges read; ResetCycles those in reset.
	Cycles, ResetCycles uint64
	// Inputs counts input transactions, Dropped the input frames dropped
	// for a non-zero tuser.
	Inputs, Dropped uint64
	// Expected counts the model's outputs, Outputs the RTL's.
	Expected, Outputs uint64
	// Matched counts outputs that agreed.
	Matched uint64
	// Divergence is the first divergence, nil when the trace agrees.
	Divergence *Divergence
}

// Passed reports whether the trace agreed with the model.
func (r *Result) Passed() bool { return r.Divergence == nil }

// Summary is the one-line outcome.
func (r *Result) Summary() string {
	if r.Passed() {
		s := fmt.Sprintf("PASS %s: %d input and %d output transactions matched the golden model (%s) over %d cycles (%d in reset)",
			r.Block, r.Inputs, r.Matched, r.Mode, r.Cycles, r.ResetCycles)
		if r.Dropped > 0 {
			s += fmt.Sprintf("; %d input frames dropped for tuser", r.Dropped)
		}
		return s
	}
	d := r.Divergence
	s := fmt.Sprintf("FAIL %s: %s at cycle %d (time %s): signal %s", r.Block, d.Kind, d.Cycle, d.TimeText, d.Signal)
	if d.Field != "" {
		s += " (field " + d.Field + ")"
	}
	return s + fmt.Sprintf(": expected %s, got %s", d.Expected, d.Got)
}

// WriteText writes the summary and, on a divergence, its detail and the
// window of cycles around it.
func (r *Result) WriteText(w io.Writer) error {
	var b strings.Builder
	b.WriteString(r.Summary())
	b.WriteByte('\n')
	if d := r.Divergence; d != nil {
		if d.Detail != "" {
			fmt.Fprintf(&b, "  %s\n", d.Detail)
		}
		fmt.Fprintf(&b, "  before it: %d inputs, %d expected and %d observed outputs, %d matched, over %d cycles\n",
			r.Inputs, r.Expected, r.Outputs, r.Matched, r.Cycles)
		if len(d.Window) > 0 {
			b.WriteString(formatWindow(d.Window))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// formatWindow lays the window out as a table: cycle, time, input,
// expected and observed output, each column as wide as its widest cell.
func formatWindow(rows []Row) string {
	cells := [][]string{{"", "cycle", "time", "input", "expected (model)", "observed (RTL)"}}
	for _, r := range rows {
		mark := ""
		if r.Here {
			mark = ">>"
		}
		in := r.Input
		if r.Reset {
			in = "(reset)"
		}
		cells = append(cells, []string{mark, fmt.Sprint(r.Cycle), dash(r.TimeText), dash(in),
			dash(strings.Join(r.Expected, " | ")), dash(r.Observed)})
	}
	width := make([]int, len(cells[0]))
	for _, row := range cells {
		for i, c := range row {
			width[i] = max(width[i], len(c))
		}
	}
	var b strings.Builder
	for _, row := range cells {
		b.WriteString(" ")
		for i, c := range row {
			b.WriteByte(' ')
			switch {
			case i == len(row)-1:
				b.WriteString(c)
			case i == 1 || i == 2:
				fmt.Fprintf(&b, "%*s", width[i], c)
			default:
				fmt.Fprintf(&b, "%-*s", width[i], c)
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
