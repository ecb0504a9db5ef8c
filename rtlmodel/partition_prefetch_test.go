package rtlmodel

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// prefetchLog is a component that works at every edge and logs its
// evaluations (with their times) and the levels it is asked to prefetch.
type prefetchLog struct {
	log  *[]string
	name string
}

func (c *prefetchLog) Eval(ed Edge) Wake {
	*c.log = append(*c.log, fmt.Sprintf("%s eval %d", c.name, ed.Time))
	return ed.Next()
}

func (c *prefetchLog) Prefetch(level int) {
	*c.log = append(*c.log, fmt.Sprintf("%s L%d", c.name, level))
}

// Before each run of a partition, the kernel asks each of its Prefetchers
// for levels 0 to PrefetchLevels-1, once each and in order, while the
// partitions before it in the sweep (or, for the first ones, at the end
// of the sweep before) run, one partition apart. The model's evaluations
// are those of a run without any Prefetcher. The partitions form a chain,
// each linked to the next, and run up to a lookahead past their
// neighbours: once the sweeps settle, each runs two edges (two
// lookaheads) at a time.
func TestPrefetchersAskedLevelByLevelAheadOfTheirWindow(t *testing.T) {
	const parts = 8
	const until = 60 * Nanosecond
	defer func(n int) { prefetchMinParts = n }(prefetchMinParts)
	prefetchMinParts = parts // small models run without the pipeline
	run := func(prefetch bool) []string {
		var log []string
		e := NewEngine(Options{})
		var hs []*Handle
		for i := 0; i < parts; i++ {
			name := fmt.Sprintf("p%d", i)
			require.NoError(t, e.Partition(name))
			d, err := e.AddDomain(name, 1000, 0)
			require.NoError(t, err)
			c := &prefetchLog{log: &log, name: name}
			var comp Component = fn(c.Eval)
			if prefetch {
				comp = c
			}
			h, err := e.Add(d, name, comp)
			require.NoError(t, err)
			if i > 0 {
				_, err = NewLink[int](fmt.Sprintf("p%d>p%d", i-1, i), hs[i-1], h, LinkConfig{Latency: 2, Width: 1})
				require.NoError(t, err)
			}
			hs = append(hs, h)
		}
		require.NoError(t, e.SetLookahead(Nanosecond))
		require.NoError(t, e.Run(until))
		return log
	}
	var evals []string
	for _, l := range run(true) {
		if strings.Contains(l, " eval ") {
			evals = append(evals, l)
		}
	}
	require.Equal(t, run(false), evals, "the same evaluations in the same order")

	// the sweeps while every partition has work: up to the first edge of
	// the last third of the run
	log := run(true)
	for i, l := range log {
		var name string
		var at Time
		if n, _ := fmt.Sscanf(l, "%s eval %d", &name, &at); n == 2 && at >= until*2/3 {
			log = log[:i]
			break
		}
	}
	for i := 0; i < parts; i++ {
		name := fmt.Sprintf("p%d ", i)
		// its own entries: levels, and each run of evaluations as the
		// number of edges in it
		var mine []string
		edges := 0
		for _, l := range log {
			if !strings.HasPrefix(l, name) {
				continue
			}
			l = strings.TrimPrefix(l, name)
			if strings.HasPrefix(l, "eval") {
				edges++
				continue
			}
			if edges > 0 {
				mine = append(mine, fmt.Sprint(edges))
				edges = 0
			}
			mine = append(mine, l)
		}
		if edges > 0 {
			mine = append(mine, fmt.Sprint(edges))
		}
		got := strings.Join(mine, " ")
		// all the levels in order before each run, of at most two edges,
		// but the first (the pipeline fills in the first sweep)
		levels := " "
		for l := 0; l < PrefetchLevels; l++ {
			levels += fmt.Sprintf("L%d ", l)
		}
		runs := strings.Split(" "+got, levels)[1:]
		require.Greater(t, len(runs), 5, "p%d: %s", i, got)
		// the log ends within the levels before a run
		runs[len(runs)-1], _, _ = strings.Cut(runs[len(runs)-1], " ")
		require.Greater(t, len(runs), 5, "p%d: %s", i, got)
		twos := 0
		for _, r := range runs {
			require.Contains(t, []string{"1", "2"}, r, "p%d: %s", i, got)
			if r == "2" {
				twos++
			}
		}
		require.Greater(t, twos, len(runs)/3, "p%d: runs of two edges once the sweeps settle: %s", i, got)
	}
	// in the first sweep, the levels come between the runs of the
	// partitions before it, one apart: p7's level L just before partition
	// parts-prefetchDepth+L runs, its last level between p5's and p6's
	// first evaluations
	firstAt := func(s string) int {
		for i, l := range log {
			if l == s {
				return i
			}
		}
		return -1
	}
	for l := 0; l < PrefetchLevels; l++ {
		k := parts - prefetchDepth + l
		level := fmt.Sprintf("p%d L%d", parts-1, l)
		require.Greater(t, firstAt(level), firstAt(fmt.Sprintf("p%d eval 0", k-1)), level)
		require.Less(t, firstAt(level), firstAt(fmt.Sprintf("p%d eval 0", k)), level)
	}
}
