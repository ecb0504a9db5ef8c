package pipeline

import (
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// StageBudget is one row of a latency budget: a stage, its latency in
// cycles of its clock, and where the figure comes from. Its time is
// Cycles × Period, exact in ps. Models build their budgets from the same
// parameters their cycle model uses (FixedStage.Budget, LinkBudget,
// StageOf with a configured cycle count), never from typed-in numbers.
type StageBudget struct {
	// Name names the stage (a component path or a block name).
	Name string
	// Cycles is the latency in cycles of Clock.
	Cycles uint64
	// Clock names the clock domain ("" for a latency given in ps).
	Clock string
	// Period is the clock period in ps (1 for a latency given in ps).
	Period rtlmodel.Time
	// Source says where the figure comes from.
	Source string
}

// StageOf returns the record of a stage of cycles cycles of domain d.
func StageOf(name string, cycles uint64, d *rtlmodel.Domain, source string) StageBudget {
	return StageBudget{Name: name, Cycles: cycles, Clock: d.Name(), Period: d.Period(), Source: source}
}

// TimeStage returns the record of a latency known in ps rather than in
// cycles (a wire, a serialisation time computed exactly elsewhere).
func TimeStage(name string, t rtlmodel.Time, source string) StageBudget {
	return StageBudget{Name: name, Cycles: uint64(t), Period: 1, Source: source}
}

// LinkBudget returns the record of a link's latency, in cycles of its
// receiver's domain. Between two components of one domain it is exact; a
// link that crosses domains adds the wait for the receiver's next edge,
// less than one receiver period, which this record does not include.
func LinkBudget[T any](l *rtlmodel.Link[T], source string) StageBudget {
	return StageOf(l.Name(), l.Config().Latency, l.To().Domain(), source)
}

// Time returns the stage's latency in ps.
func (s StageBudget) Time() rtlmodel.Time { return rtlmodel.Time(s.Cycles) * s.Period }

// NS returns the latency in ns, for reports.
func (s StageBudget) NS() float64 { return s.Time().Nanoseconds() }

// Budget is an ordered list of stages whose latencies add up.
type Budget []StageBudget

// Total returns the sum of the stages' latencies in ps.
func (b Budget) Total() rtlmodel.Time {
	var t rtlmodel.Time
	for _, s := range b {
		t += s.Time()
	}
	return t
}

// Check returns an error naming the total and the limit when the budget
// is over limit.
func (b Budget) Check(limit rtlmodel.Time) error {
	if t := b.Total(); t > limit {
		return fmt.Errorf("latency budget of %s ns exceeds %s ns", FormatNS(t), FormatNS(limit))
	}
	return nil
}

// BudgetHeader names the columns of Rows.
var BudgetHeader = []string{"stage", "clock", "cycles", "period ps", "ns", "cumulative ns", "source"}

// Rows renders one row per stage and a final total row, with times in ns
// printed exactly (to the ps).
func (b Budget) Rows() [][]string {
	rows := make([][]string, 0, len(b)+1)
	var cum rtlmodel.Time
	for _, s := range b {
		cum += s.Time()
		clock := s.Clock
		if clock == "" {
			clock = "-"
		}
		rows = append(rows, []string{s.Name, clock, strconv.FormatUint(s.Cycles, 10),
			strconv.FormatUint(uint64(s.Period), 10), FormatNS(s.Time()), FormatNS(cum), s.Source})
	}
	return append(rows, []string{"total", "", "", "", FormatNS(cum), FormatNS(cum), ""})
}

// WriteText writes the budget as an aligned text table.
func (b Budget) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	var err error
	write := func(row []string) {
		for i, c := range row {
			if err == nil && i > 0 {
				_, err = io.WriteString(tw, "\t")
			}
			if err == nil {
				_, err = io.WriteString(tw, c)
			}
		}
		if err == nil {
			_, err = io.WriteString(tw, "\n")
		}
	}
	write(BudgetHeader)
	for _, r := range b.Rows() {
		write(r)
	}
	if err != nil {
		return err
	}
	return tw.Flush()
}

// FormatNS prints a time in ns with three decimals, exactly (1 ps is
// 0.001 ns).
func FormatNS(t rtlmodel.Time) string {
	return strconv.FormatUint(uint64(t/1000), 10) + "." + fmt.Sprintf("%03d", uint64(t%1000))
}
