package fabric

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

func TestBudgetReportSectionsComeFromTheModel(t *testing.T) {
	cfg := DefaultBudgetConfig()
	rep, err := ComputeBudget(cfg)
	require.NoError(t, err)
	titles := map[string]BudgetSection{}
	for _, s := range rep.Sections {
		titles[s.Title] = s
	}
	b, err := WriteBudget(cfg.Path, 64, 0, false)
	require.NoError(t, err)
	e2e := titles["End to end: 64 B inline RDMA WRITE, doorbell to CQE visible, one switch, QP context cached"]
	require.Equal(t, b.Total().Nanoseconds(), e2e.TotalNS)
	require.Equal(t, 900.0, e2e.TargetNS)
	sw := titles["Switch port to port, 142 B frame, first bit in to first bit out (unloaded)"]
	require.LessOrEqual(t, sw.TotalNS, 260.0)
	require.Len(t, rep.Sections, 12)

	// A parameter moves the budget by what the model says it costs.
	require.NoError(t, cfg.Set("phy.fec_decode_ps", "75000"))
	rep2, err := ComputeBudget(cfg)
	require.NoError(t, err)
	// +30 ns of decode, and the wait for the next 800 ps pipe edge moves with it
	require.InDelta(t, sw.TotalNS+30, rep2.Sections[0].TotalNS, 0.8)
	require.ErrorContains(t, cfg.Set("switch.clock", "1"), `unknown budget parameter "switch.clock"`)
	require.ErrorContains(t, cfg.Set("switch.clock_ps", "fast"), `switch.clock_ps "fast": not a whole number`)
	require.NoError(t, cfg.Set("switch.clock_ps", "1000"))
	require.Equal(t, rtlmodel.Time(1000), cfg.Path.Switch.Pipes.ClockPeriod)
}
