package pipeline

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

func TestBudgetRows(t *testing.T) {
	e := rtlmodel.NewEngine(rtlmodel.Options{})
	core, err := e.AddDomain("core", 800, 0) // 1.25 GHz
	require.NoError(t, err)
	b := Budget{
		StageOf("parser", 12, core, "design"),
		TimeStage("wire", 5_123, "1 m of fibre"),
		{Name: "tm", Cycles: 3, Clock: "tm", Period: 667, Source: "x"},
	}
	require.Equal(t, rtlmodel.Time(9_600+5_123+2_001), b.Total())
	require.InDelta(t, 9.6, b[0].NS(), 1e-12)
	rows := b.Rows()
	require.Len(t, rows, 4)
	require.Equal(t, []string{"parser", "core", "12", "800", "9.600", "9.600", "design"}, rows[0])
	require.Equal(t, []string{"wire", "-", "5123", "1", "5.123", "14.723", "1 m of fibre"}, rows[1])
	require.Equal(t, []string{"total", "", "", "", "16.724", "16.724", ""}, rows[3])
	require.Len(t, BudgetHeader, len(rows[0]))
	require.NoError(t, b.Check(16_724))
	require.ErrorContains(t, b.Check(16_723), "16.724 ns exceeds 16.723 ns")
	require.Equal(t, "0.007", FormatNS(7))
	require.Equal(t, "260.000", FormatNS(260*rtlmodel.Nanosecond))
	require.Zero(t, Budget(nil).Total())

	var sb strings.Builder
	require.NoError(t, b.WriteText(&sb))
	lines := strings.Split(strings.TrimSpace(sb.String()), "\n")
	require.Len(t, lines, 5)
	require.True(t, strings.HasPrefix(lines[0], "stage "))
	require.Contains(t, lines[4], "16.724")
	require.Error(t, b.WriteText(failWriter{}))
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// The budget of a path built from the model: a link, a fixed-latency stage
// and a link, each taken from the parameters the cycle model runs with.
func ExampleBudget() {
	e := rtlmodel.NewEngine(rtlmodel.Options{})
	core, _ := e.AddDomain("core", 800, 0)
	src, _ := e.Add(core, "mac_rx", &testSource{})
	parse, _ := AddFixedStage[int](e, core, "parser", FixedStageConfig{Cycles: 24, Width: 1, Source: "parser depth"})
	dst, _ := e.Add(core, "tm", &testSink{})
	in, _ := rtlmodel.NewLink[int]("mac_rx>parser", src, parse.Handle(), rtlmodel.LinkConfig{Latency: 2, Width: 1})
	out, _ := rtlmodel.NewLink[int]("parser>tm", parse.Handle(), dst, rtlmodel.LinkConfig{Latency: 1, Width: 1})
	_ = parse.Connect(in, out)
	b := Budget{LinkBudget(in, "wiring"), parse.Budget(), LinkBudget(out, "wiring")}
	_ = b.WriteText(os.Stdout)
	// Output:
	// stage          clock  cycles  period ps  ns      cumulative ns  source
	// mac_rx>parser  core   2       800        1.600   1.600          wiring
	// parser         core   24      800        19.200  20.800         parser depth
	// parser>tm      core   1       800        0.800   21.600         wiring
	// total                                    21.600  21.600
}
