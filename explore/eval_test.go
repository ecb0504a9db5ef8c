package explore

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBudgetEvaluatorFollowsItsParameters(t *testing.T) {
	ev, err := NewEvaluator("budget")
	require.NoError(t, err)
	base, err := ev.Evaluate(context.Background(), nil, 0)
	require.NoError(t, err)
	for _, m := range ev.Metrics() {
		assert.Greater(t, base[m.Name], 0.0, m.Name)
	}
	assert.Greater(t, base["e2e_miss_ns"], base["e2e_ns"])
	slow, err := ev.Evaluate(context.Background(), []Assignment{{"switch.mmu_cycles", "128"}}, 0)
	require.NoError(t, err)
	assert.Greater(t, slow["switch_ns"], base["switch_ns"])
	assert.InDelta(t, slow["e2e_ns"]-base["e2e_ns"], slow["switch_ns"]-base["switch_ns"], 1e-6)
	assert.ErrorContains(t, ev.Check([]Assignment{{"switch.nope", "1"}}), "unknown budget parameter")
}

func TestIncastEvaluatorMeasuresTheRun(t *testing.T) {
	ev, err := NewEvaluator("incast")
	require.NoError(t, err)
	params := []Assignment{{"senders", "4"}, {"bytes", "131072"}, {"switch.buffer_bytes", "16000000"}}
	a, err := ev.Evaluate(context.Background(), params, 3)
	require.NoError(t, err)
	b, err := ev.Evaluate(context.Background(), params, 3)
	require.NoError(t, err)
	assert.Equal(t, a, b, "same point, same seed, same metrics")
	assert.Greater(t, a["throughput_gbps"], 100.0)
	assert.LessOrEqual(t, a["throughput_gbps"], 400.0)
	assert.Greater(t, a["peak_buffer_bytes"], 0.0)
	assert.Greater(t, a["fct_p50_us"], 0.0)
	assert.GreaterOrEqual(t, a["fct_p99_us"], a["fct_p50_us"])
	assert.GreaterOrEqual(t, a["fct_max_us"], a["fct_p99_us"])
	// 4 × 128 KiB cannot finish sooner than the receiver's link allows.
	assert.GreaterOrEqual(t, a["fct_max_us"], 4*131072*8/400e3)

	assert.ErrorContains(t, ev.Check([]Assignment{{"ecn.pmax", "1.5"}}), "pmax")
	assert.ErrorContains(t, ev.Check([]Assignment{{"cc", "tcp"}}), "one of")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = ev.Evaluate(ctx, params, 3)
	assert.ErrorIs(t, err, context.Canceled)
}

func TestPercentileNearestRank(t *testing.T) {
	r := IncastResult{FCTs: []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}}
	assert.Equal(t, 5.0, r.Percentile(50))
	assert.Equal(t, 10.0, r.Percentile(99))
	assert.Equal(t, 1.0, r.Percentile(0))
	assert.Equal(t, 0.0, IncastResult{}.Percentile(50))
}

// An incast sweep whose senders outnumber the switch's ports but one is
// refused when the sweep loads, at the line of the value, rather than by
// its point failing when the switch is built; the largest is accepted.
func TestIncastSendersBoundedByTheSwitchPorts(t *testing.T) {
	ev, err := NewEvaluator("incast")
	require.NoError(t, err)
	require.NoError(t, ev.Check([]Assignment{{"senders", "127"}}))
	assert.ErrorContains(t, ev.Check([]Assignment{{"senders", "0"}}), "want 1 to 127")
	_, err = ParseSweep([]byte(`name: too-many
evaluator: incast
design: {kind: grid}
parameters:
  - name: senders
    values:
      - 8
      - 200
metrics: [throughput_gbps]
`))
	require.ErrorContains(t, err, "line 5: point ")
	require.ErrorContains(t, err, `: senders="200": want 1 to 127 (a port of the switch each, and one for the receiver)`)
}

// The incast sweep's switch.buffer_bytes has a scenario's bound.
func TestIncastBufferBoundedAsAScenarios(t *testing.T) {
	ev, err := NewEvaluator("incast")
	require.NoError(t, err)
	require.NoError(t, ev.Check([]Assignment{{"switch.buffer_bytes", "2000000000"}}))
	assert.ErrorContains(t, ev.Check([]Assignment{{"switch.buffer_bytes", "2000000001"}}), "at most 2000000000, as a scenario's switch.buffer_bytes")
}
