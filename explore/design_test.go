package explore

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func sweepOf(t *testing.T, design, params string, seed int) *Sweep {
	t.Helper()
	s, err := ParseSweep([]byte(fmt.Sprintf("name: d\nevaluator: count\nseed: %d\ndesign: %s\nparameters:\n%s\nmetrics: [f]\n", seed, design, params)))
	require.NoError(t, err)
	return s
}

func TestGridIsEveryCombinationLastFastest(t *testing.T) {
	s := sweepOf(t, "{kind: grid}", "  - {name: x, values: ['1', '2']}\n  - {name: y, min: 10, max: 30, steps: 3}", 1)
	pts, err := s.Points()
	require.NoError(t, err)
	var got []string
	for i, p := range pts {
		require.Equal(t, i, p.Index)
		got = append(got, describe(p.Params))
	}
	assert.Equal(t, []string{"x=1, y=10", "x=1, y=20", "x=1, y=30", "x=2, y=10", "x=2, y=20", "x=2, y=30"}, got)
}

func TestGridLogScale(t *testing.T) {
	s := sweepOf(t, "{kind: grid}", "  - {name: x, min: 1, max: 1000, steps: 4, scale: log, integer: true}\n  - {name: y, values: ['0']}", 1)
	pts, err := s.Points()
	require.NoError(t, err)
	var xs []string
	for _, p := range pts {
		xs = append(xs, p.Params[0].Value)
	}
	assert.Equal(t, []string{"1", "10", "100", "1000"}, xs)
}

func TestRandomDrawsInRangeAndIsSeeded(t *testing.T) {
	params := "  - {name: x, min: 2, max: 5}\n  - {name: y, values: ['1', '2', '3']}"
	a, err := sweepOf(t, "{kind: random, samples: 50}", params, 3).Points()
	require.NoError(t, err)
	b, err := sweepOf(t, "{kind: random, samples: 50}", params, 3).Points()
	require.NoError(t, err)
	c, err := sweepOf(t, "{kind: random, samples: 50}", params, 4).Points()
	require.NoError(t, err)
	require.Len(t, a, 50)
	assert.Equal(t, a, b, "same sweep seed, same points")
	assert.NotEqual(t, a, c, "another sweep seed, other points")
	seenY := map[string]bool{}
	for _, p := range a {
		x, err := strconv.ParseFloat(p.Params[0].Value, 64)
		require.NoError(t, err)
		assert.True(t, x >= 2 && x <= 5, "x=%g", x)
		seenY[p.Params[1].Value] = true
	}
	assert.Len(t, seenY, 3)
}

// A Latin hypercube puts exactly one sample in each of the n equal strata
// of every parameter.
func TestLatinHypercubeStratifies(t *testing.T) {
	for _, n := range []int{1, 7, 20, 64} {
		s := sweepOf(t, fmt.Sprintf("{kind: lhs, samples: %d}", n),
			"  - {name: x, min: 0, max: 1}\n  - {name: y, min: 100, max: 300}\n  - {name: z, min: 1, max: 10000, scale: log}", 11)
		pts, err := s.Points()
		require.NoError(t, err)
		require.Len(t, pts, n)
		for k, p := range s.Parameters {
			hit := make([]int, n)
			for _, pt := range pts {
				v, err := strconv.ParseFloat(pt.Params[k].Value, 64)
				require.NoError(t, err)
				u := (v - *p.Min) / (*p.Max - *p.Min)
				if p.Scale == "log" {
					u = (log(v) - log(*p.Min)) / (log(*p.Max) - log(*p.Min))
				}
				hit[min(int(u*float64(n)), n-1)]++
			}
			for i, h := range hit {
				assert.Equal(t, 1, h, "n=%d %s: stratum %d holds %d samples", n, p.Name, i, h)
			}
		}
	}
}

func TestLatinHypercubeOverValuesBalances(t *testing.T) {
	s := sweepOf(t, "{kind: lhs, samples: 12}", "  - {name: x, values: ['1', '2', '3', '4']}\n  - {name: y, min: 0, max: 1}", 5)
	pts, err := s.Points()
	require.NoError(t, err)
	count := map[string]int{}
	for _, p := range pts {
		count[p.Params[0].Value]++
	}
	assert.Equal(t, map[string]int{"1": 3, "2": 3, "3": 3, "4": 3}, count)
}

func TestPointSeedsAndIDsAreDeterministic(t *testing.T) {
	a, err := gridSweep(t, 3, 3).Points()
	require.NoError(t, err)
	b, err := gridSweep(t, 3, 3).Points()
	require.NoError(t, err)
	assert.Equal(t, a, b)
	ids, seeds := map[string]bool{}, map[uint64]bool{}
	for _, p := range a {
		ids[p.ID], seeds[p.Seed] = true, true
		assert.Len(t, p.ID, 16)
	}
	assert.Len(t, ids, 9)
	assert.Len(t, seeds, 9)

	// The seed follows the point's values, not its place: the same values
	// in a bigger grid keep their id and seed.
	big, err := gridSweep(t, 4, 4).Points()
	require.NoError(t, err)
	byID := map[string]Point{}
	for _, p := range big {
		byID[p.ID] = p
	}
	for _, p := range a {
		q, ok := byID[p.ID]
		require.True(t, ok)
		assert.Equal(t, p.Seed, q.Seed)
		assert.Equal(t, p.Params, q.Params)
	}

	// Another sweep seed: same ids, other seeds.
	s := gridSweep(t, 3, 3)
	s.Seed = 8
	c, err := s.Points()
	require.NoError(t, err)
	for i := range a {
		assert.Equal(t, a[i].ID, c[i].ID)
		assert.NotEqual(t, a[i].Seed, c[i].Seed)
	}
}

func TestShardsPartitionThePoints(t *testing.T) {
	pts, err := gridSweep(t, 5, 7).Points()
	require.NoError(t, err)
	for _, n := range []int{1, 2, 3, 8, 35, 40} {
		seen := map[string]int{}
		for i := 0; i < n; i++ {
			sh, err := ParseShard(fmt.Sprintf("%d/%d", i, n))
			require.NoError(t, err)
			for _, p := range sh.Select(pts) {
				seen[p.ID]++
			}
		}
		require.Len(t, seen, len(pts), "n=%d", n)
		for id, k := range seen {
			require.Equal(t, 1, k, "n=%d: point %s in %d shards", n, id, k)
		}
	}
	for _, bad := range []string{"", "1", "3/3", "-1/2", "a/b", "0/0"} {
		_, err := ParseShard(bad)
		assert.Error(t, err, bad)
	}
}
