package explore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"sort"
	"sync"
)

// RunOptions says where and how a sweep runs.
type RunOptions struct {
	// Dir is the output directory; result files go to Dir/points.
	Dir string
	// Workers is how many points are evaluated at once (0: every CPU).
	Workers int
	// Shard limits the run to one shard (zero: every point).
	Shard Shard
	// Evaluator replaces the sweep's registered evaluator (nil: use it).
	Evaluator Evaluator
	// Progress is called after each point of the shard is settled (found
	// done, evaluated or failed), with the count so far and the total; the
	// calls do not overlap and their counts rise by one.
	Progress func(settled, total int)
}

// RunStats counts what a run did.
type RunStats struct {
	Points, Skipped, Evaluated, Failed int
}

// Run evaluates the sweep's points (of the shard) that have no result
// file yet, on a pool of workers, writing each result file atomically as
// its point finishes. Failed points get no file and are tried again on the
// next run. When ctx is cancelled no new point starts; Run returns once
// the running ones stop, with ctx's error.
func Run(ctx context.Context, s *Sweep, opt RunOptions) (RunStats, error) {
	var st RunStats
	pts, err := s.Points()
	if err != nil {
		return st, err
	}
	pts = opt.Shard.Select(pts)
	st.Points = len(pts)
	ev := opt.Evaluator
	if ev == nil {
		if ev, err = s.evaluator(); err != nil {
			return st, err
		}
	}
	if err := os.MkdirAll(pointsDir(opt.Dir), 0o755); err != nil {
		return st, err
	}
	var (
		mu      sync.Mutex
		errs    []error
		settled int
	)
	settle := func(f func()) {
		mu.Lock()
		defer mu.Unlock()
		f()
		settled++
		if opt.Progress != nil {
			opt.Progress(settled, len(pts))
		}
	}
	var todo []Point
	for _, p := range pts {
		if done(opt.Dir, p, s.Metrics) {
			settle(func() { st.Skipped++ })
			continue
		}
		todo = append(todo, p)
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	work := make(chan Point)
	var wg sync.WaitGroup
	for w := 0; w < min(workers, max(len(todo), 1)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range work {
				err := evaluate(ctx, s, ev, opt.Dir, p)
				settle(func() {
					if err != nil {
						st.Failed++
						if ctx.Err() == nil {
							errs = append(errs, err)
						}
						return
					}
					st.Evaluated++
				})
			}
		}()
	}
feed:
	for _, p := range todo {
		select {
		case <-ctx.Done():
			break feed
		case work <- p:
		}
	}
	close(work)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return st, err
	}
	sort.Slice(errs, func(i, j int) bool { return errs[i].Error() < errs[j].Error() })
	return st, errors.Join(errs...)
}

// evaluate runs one point and writes its result file.
func evaluate(ctx context.Context, s *Sweep, ev Evaluator, dir string, p Point) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m, err := evaluateSafely(ctx, ev, append(s.BaseParams(), p.Params...), p.Seed)
	if err != nil {
		return s.evalError(p, err)
	}
	r := Result{Point: p}
	for _, name := range s.Metrics {
		v, ok := m[name]
		if !ok {
			return fmt.Errorf("point %s: the evaluator did not report %q", p.ID, name)
		}
		r.Metrics = append(r.Metrics, Value{name, v})
	}
	return writeResult(dir, r)
}

// evaluateSafely runs one evaluation, turning a panic of the model into
// the point's error, with the stack: points are independent simulations
// that share no state, so one failing this way leaves the others sound,
// and the sweep goes on and reports it with the other failures.
func evaluateSafely(ctx context.Context, ev Evaluator, params []Assignment, seed uint64) (m map[string]float64, err error) {
	defer func() {
		if r := recover(); r != nil {
			m, err = nil, fmt.Errorf("panic: %v\n%s", r, debug.Stack())
		}
	}()
	return ev.Evaluate(ctx, params, seed)
}

// describe writes assignments as name=value, comma separated.
func describe(as []Assignment) string {
	out := ""
	for i, a := range as {
		if i > 0 {
			out += ", "
		}
		out += a.Name + "=" + a.Value
	}
	return out
}
