package explore

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
)

// countEvaluator is a cheap evaluator for run tests: f = x*y + seed bit,
// counting its evaluations per point and calling hook after each.
type countEvaluator struct {
	calls atomic.Int64
	mu    sync.Mutex
	per   map[string]int
	hook  func(n int64)
}

func (*countEvaluator) Params() [][3]string {
	return [][3]string{{"x", "", "first"}, {"y", "", "second"}}
}

func (*countEvaluator) Metrics() []Metric {
	return []Metric{{Name: "f"}, {Name: "g"}}
}

func (*countEvaluator) Check(params []Assignment) error {
	for _, a := range params {
		if a.Name != "x" && a.Name != "y" && a.Name != "z" {
			return fmt.Errorf("unknown parameter %q", a.Name)
		}
		if _, err := strconv.ParseFloat(a.Value, 64); err != nil {
			return err
		}
	}
	return nil
}

func (c *countEvaluator) Evaluate(ctx context.Context, params []Assignment, seed uint64) (map[string]float64, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	x, _ := lookup(params, "x")
	y, _ := lookup(params, "y")
	fx, _ := strconv.ParseFloat(x, 64)
	fy, _ := strconv.ParseFloat(y, 64)
	c.mu.Lock()
	if c.per == nil {
		c.per = map[string]int{}
	}
	c.per[canonical(params)]++
	c.mu.Unlock()
	n := c.calls.Add(1)
	if c.hook != nil {
		c.hook(n)
	}
	return map[string]float64{"f": fx * fy, "g": fx + fy + float64(seed%2)}, nil
}

func init() { Register("count", func() Evaluator { return &countEvaluator{} }) }

// gridSweep is a count sweep over a grid of nx × ny points.
func gridSweep(t *testing.T, nx, ny int) *Sweep {
	t.Helper()
	s, err := ParseSweep([]byte(fmt.Sprintf(`
name: grid
evaluator: count
seed: 7
design: {kind: grid}
parameters:
  - {name: x, min: 1, max: %d, steps: %d, integer: true}
  - {name: y, min: 1, max: %d, steps: %d, integer: true}
metrics: [f, g]
`, nx, nx, ny, ny)))
	require.NoError(t, err)
	return s
}
