package explore

import (
	"context"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRunWritesOneResultFilePerPoint(t *testing.T) {
	s := gridSweep(t, 4, 5)
	dir := t.TempDir()
	ev := &countEvaluator{}
	var progress atomic.Int64
	st, err := Run(context.Background(), s, RunOptions{Dir: dir, Workers: 3, Evaluator: ev,
		Progress: func(n, total int) { progress.Add(1); assert.Equal(t, 20, total) }})
	require.NoError(t, err)
	assert.Equal(t, RunStats{Points: 20, Evaluated: 20}, st)
	assert.EqualValues(t, 20, progress.Load())
	files, err := filepath.Glob(filepath.Join(dir, "points", "*"))
	require.NoError(t, err)
	assert.Len(t, files, 20, "no temporary files left behind")
	pts, _ := s.Points()
	r, err := readResult(resultPath(dir, pts[7].ID))
	require.NoError(t, err)
	x, _ := r.Param("x")
	y, _ := r.Param("y")
	assert.Equal(t, "2", x)
	assert.Equal(t, "3", y)
	f, _ := r.Metric("f")
	assert.Equal(t, 6.0, f)
	assert.Equal(t, pts[7].Seed, r.Seed)
}

// A sweep cancelled after k points keeps those k result files; the rerun
// evaluates only the rest, and no point is evaluated twice.
func TestInterruptedSweepResumes(t *testing.T) {
	s := gridSweep(t, 6, 5)
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ev := &countEvaluator{}
	const k = 9
	ev.hook = func(n int64) {
		if n == k {
			cancel()
		}
	}
	st, err := Run(ctx, s, RunOptions{Dir: dir, Workers: 1, Evaluator: ev})
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, k, st.Evaluated)
	first, err := filepath.Glob(filepath.Join(dir, "points", "*.json"))
	require.NoError(t, err)
	require.Len(t, first, k)
	mtimes := map[string]time.Time{}
	for _, f := range first {
		fi, err := os.Stat(f)
		require.NoError(t, err)
		mtimes[f] = fi.ModTime()
	}
	_, err = Merge(s, dir)
	require.ErrorContains(t, err, "missing point")

	time.Sleep(20 * time.Millisecond) // a rewrite would show in the modification time
	again := &countEvaluator{}
	st, err = Run(context.Background(), s, RunOptions{Dir: dir, Workers: 4, Evaluator: again})
	require.NoError(t, err)
	assert.Equal(t, RunStats{Points: 30, Skipped: k, Evaluated: 30 - k}, st)
	assert.EqualValues(t, 30-k, again.calls.Load())
	for p, n := range ev.per {
		assert.Equal(t, 1, n)
		assert.Zero(t, again.per[p], "point %q evaluated again", p)
	}
	for f, mt := range mtimes {
		fi, err := os.Stat(f)
		require.NoError(t, err)
		assert.Equal(t, mt, fi.ModTime(), "%s rewritten", f)
	}
	res, err := Merge(s, dir)
	require.NoError(t, err)
	assert.Len(t, res.Points, 30)

	// A third run has nothing to do.
	third := &countEvaluator{}
	st, err = Run(context.Background(), s, RunOptions{Dir: dir, Evaluator: third})
	require.NoError(t, err)
	assert.Equal(t, RunStats{Points: 30, Skipped: 30}, st)
	assert.Zero(t, third.calls.Load())
}

// A half-written temporary file from a killed run is not a result.
func TestLeftoverTemporaryFileIsIgnored(t *testing.T) {
	s := gridSweep(t, 2, 2)
	dir := t.TempDir()
	pts, _ := s.Points()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "points"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "points", "."+pts[0].ID+".123.tmp"), []byte(`{"id":`), 0o644))
	st, err := Run(context.Background(), s, RunOptions{Dir: dir, Evaluator: &countEvaluator{}})
	require.NoError(t, err)
	assert.Equal(t, 4, st.Evaluated)
	_, err = Merge(s, dir)
	require.NoError(t, err)
}

func TestShardedRunsMergeToTheLocalResult(t *testing.T) {
	s := gridSweep(t, 3, 4)
	local := t.TempDir()
	_, err := Run(context.Background(), s, RunOptions{Dir: local, Evaluator: &countEvaluator{}})
	require.NoError(t, err)
	sharded := t.TempDir()
	for i := 0; i < 5; i++ {
		_, err := Run(context.Background(), s, RunOptions{Dir: sharded, Shard: Shard{I: i, N: 5}, Workers: 2, Evaluator: &countEvaluator{}})
		require.NoError(t, err)
	}
	assert.Equal(t, mergedBytes(t, s, local), mergedBytes(t, s, sharded))
}

// mergedBytes merges dirs and returns the CSV and the JSON.
func mergedBytes(t *testing.T, s *Sweep, dirs ...string) [2]string {
	t.Helper()
	res, err := Merge(s, dirs...)
	require.NoError(t, err)
	out := t.TempDir()
	require.NoError(t, res.WriteFiles(filepath.Join(out, "r.csv"), filepath.Join(out, "r.json")))
	c, err := os.ReadFile(filepath.Join(out, "r.csv"))
	require.NoError(t, err)
	j, err := os.ReadFile(filepath.Join(out, "r.json"))
	require.NoError(t, err)
	return [2]string{string(c), string(j)}
}

// panicEvaluator is a countEvaluator whose model panics at x=2, y=3.
type panicEvaluator struct{ countEvaluator }

func (e *panicEvaluator) Evaluate(ctx context.Context, params []Assignment, seed uint64) (map[string]float64, error) {
	x, _ := lookup(params, "x")
	y, _ := lookup(params, "y")
	if x == "2" && y == "3" {
		var table []int
		_ = table[x[0]] // index out of range, as a model bug would be
	}
	return e.countEvaluator.Evaluate(ctx, params, seed)
}

// A point whose model panics fails alone: the other points are evaluated
// and written, and the panic comes back as that point's error with its
// stack, so the next run retries only it.
func TestPanickingPointFailsAlone(t *testing.T) {
	s := gridSweep(t, 3, 4)
	dir := t.TempDir()
	st, err := Run(context.Background(), s, RunOptions{Dir: dir, Workers: 2, Evaluator: &panicEvaluator{}})
	require.Error(t, err)
	assert.Equal(t, RunStats{Points: 12, Evaluated: 11, Failed: 1}, st)
	assert.Contains(t, err.Error(), "(x=2, y=3): panic: runtime error: index out of range")
	assert.Contains(t, err.Error(), "explore.(*panicEvaluator).Evaluate", "the stack of the panic")
	files, _ := filepath.Glob(filepath.Join(dir, "points", "*.json"))
	assert.Len(t, files, 11)
}
