package explore

import (
	"context"
	"fmt"
	"strings"

	"github.com/fabricmodel/fabricmodel/fabric"
)

// budgetEvaluator computes the budget report (fabric.ComputeBudget) with
// the point's values set on the default BudgetConfig.
type budgetEvaluator struct{}

// budgetMetrics are the report's latency totals, by section title prefix.
var budgetMetrics = []struct {
	Metric
	prefix string
	nth    int // which section with this prefix (0: first)
}{
	{Metric{"switch_ns", "ns", "switch port to port, first bit in to first bit out"}, "Switch port to port", 0},
	{Metric{"nic_tx_ns", "ns", "NIC transmit path: doorbell to first bit on the wire"}, "NIC transmit path", 0},
	{Metric{"nic_rx_ns", "ns", "NIC receive path: first bit in to CQE visible"}, "NIC receive path", 0},
	{Metric{"e2e_ns", "ns", "end-to-end inline RDMA WRITE through one switch, QP context cached"}, "End to end", 0},
	{Metric{"e2e_miss_ns", "ns", "end-to-end inline RDMA WRITE through one switch, QP context missed"}, "End to end", 1},
}

// Params lists fabric.BudgetParams.
func (budgetEvaluator) Params() [][3]string { return fabric.BudgetParams() }

// Metrics lists the budget's latency totals.
func (budgetEvaluator) Metrics() []Metric {
	out := make([]Metric, len(budgetMetrics))
	for i, m := range budgetMetrics {
		out[i] = m.Metric
	}
	return out
}

func (budgetEvaluator) config(params []Assignment) (fabric.BudgetConfig, error) {
	cfg := fabric.DefaultBudgetConfig()
	for _, a := range params {
		if err := cfg.Set(a.Name, a.Value); err != nil {
			return cfg, &paramError{a.Name, err}
		}
	}
	return cfg, nil
}

// Check sets the values on a default BudgetConfig.
func (b budgetEvaluator) Check(params []Assignment) error {
	_, err := b.config(params)
	return err
}

// Evaluate computes the report and reads the latency totals off it. The
// budget is exact arithmetic; the seed is not used.
func (b budgetEvaluator) Evaluate(_ context.Context, params []Assignment, _ uint64) (map[string]float64, error) {
	cfg, err := b.config(params)
	if err != nil {
		return nil, err
	}
	rep, err := fabric.ComputeBudget(cfg)
	if err != nil {
		return nil, err
	}
	out := map[string]float64{}
	for _, m := range budgetMetrics {
		n := 0
		for _, s := range rep.Sections {
			if !strings.HasPrefix(s.Title, m.prefix) {
				continue
			}
			if n == m.nth {
				out[m.Name] = s.TotalNS
				break
			}
			n++
		}
		if _, ok := out[m.Name]; !ok {
			return nil, fmt.Errorf("budget: the report has no section %q", m.prefix)
		}
	}
	return out, nil
}
