package rtlmodel

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// prefetchLog is a component that works at every edge and logs its
// evaluations and the levels it is asked to prefetch.
type prefetchLog struct {
	log    *[]string
	name   string
	cycles int
}

func (c *prefetchLog) Eval(ed Edge) Wake {
	*c.log = append(*c.log, c.name+" eval")
	if c.cycles--; c.cycles == 0 {
		return Never
	}
	return ed.Next()
}

func (c *prefetchLog) Prefetch(level int) {
	*c.log = append(*c.log, fmt.Sprintf("%s L%d", c.name, level))
}

// Between two windows of a partition, the kernel asks each of its
// Prefetchers for levels 0 to PrefetchLevels-1, once each and in order,
// while the partitions before it in the window run: a partition at least
// prefetchDepth places into the window's list gets every level, one
// partition apart, before it runs; the first ones get the levels there
// was room for. The model's evaluations are those of a run without any
// Prefetcher.
func TestPrefetchersAskedLevelByLevelAheadOfTheirWindow(t *testing.T) {
	const parts, cycles = 8, 6
	run := func(prefetch bool) []string {
		var log []string
		e := NewEngine(Options{})
		for i := 0; i < parts; i++ {
			name := fmt.Sprintf("p%d", i)
			require.NoError(t, e.Partition(name))
			d, err := e.AddDomain(name, 1000, 0)
			require.NoError(t, err)
			c := &prefetchLog{log: &log, name: name, cycles: cycles}
			var comp Component = fn(c.Eval)
			if prefetch {
				comp = c
			}
			_, err = e.Add(d, name, comp)
			require.NoError(t, err)
		}
		require.NoError(t, e.SetLookahead(Nanosecond))
		require.NoError(t, e.Run(Forever))
		return log
	}
	var evals []string
	for _, l := range run(true) {
		if len(l) > 4 && l[len(l)-4:] == "eval" {
			evals = append(evals, l)
		}
	}
	require.Equal(t, run(false), evals, "the same evaluations in the same order")

	log := run(true)
	for i := 0; i < parts; i++ {
		name := fmt.Sprintf("p%d", i)
		var mine []string
		for _, l := range log {
			if len(l) > len(name) && l[:len(name)+1] == name+" " {
				mine = append(mine, l[len(name)+1:])
			}
		}
		// levels there is room for ahead of a partition at place i
		var want []string
		for lv := max(0, prefetchDepth-1-i); lv < PrefetchLevels; lv++ {
			want = append(want, fmt.Sprintf("L%d", lv))
		}
		var got []string
		for w := 0; w < cycles; w++ {
			got = append(got, want...)
			got = append(got, "eval")
		}
		require.Equal(t, got, mine, "%s: its levels in order before each of its windows", name)
	}
	// the levels come between the runs of the partitions before it, one
	// apart: p7's level 0 between p2's and p3's evaluations in the same
	// window, its level 3 between p5's and p6's
	first := func(s string) int {
		for i, l := range log {
			if l == s {
				return i
			}
		}
		return -1
	}
	require.Greater(t, first("p7 L0"), first("p2 eval"))
	require.Less(t, first("p7 L0"), first("p3 eval"))
	require.Greater(t, first("p7 L3"), first("p5 eval"))
	require.Less(t, first("p7 L3"), first("p6 eval"))
}
