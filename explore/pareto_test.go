package explore

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// results builds Results with metrics a and b from pairs, ids A, B, ...
func results(pairs ...[2]float64) *Results {
	r := &Results{Metrics: []string{"a", "b"}}
	for i, p := range pairs {
		r.Points = append(r.Points, Result{Point: Point{ID: string(rune('A' + i)), Index: i},
			Metrics: []Value{{"a", p[0]}, {"b", p[1]}}})
	}
	return r
}

func ids(rs []Result) string {
	s := ""
	for _, r := range rs {
		s += r.ID
	}
	return s
}

func TestParetoKnownAnswers(t *testing.T) {
	r := results(
		[2]float64{1, 9}, // A
		[2]float64{2, 7}, // B
		[2]float64{3, 8}, // C: dominated by B
		[2]float64{4, 3}, // D
		[2]float64{5, 3}, // E: dominated by D (equal b, worse a)
		[2]float64{6, 1}, // F
		[2]float64{7, 2}, // G: dominated by F
		[2]float64{4, 3}, // H: equal to D, kept
	)
	// min a, min b: A B D H F, sorted by a.
	front, err := Pareto(r, "a", false, "b", false)
	require.NoError(t, err)
	assert.Equal(t, "ABDHF", ids(front))
	// max a, max b: G has the largest a, A the largest b; E and C between.
	front, err = Pareto(r, "a", true, "b", true)
	require.NoError(t, err)
	assert.Equal(t, "GECA", ids(front))
	// min a, max b: A alone (smallest a and largest b).
	front, err = Pareto(r, "a", false, "b", true)
	require.NoError(t, err)
	assert.Equal(t, "A", ids(front))
	// max a, min b: G (7,2) and F (6,1).
	front, err = Pareto(r, "a", true, "b", false)
	require.NoError(t, err)
	assert.Equal(t, "GF", ids(front))

	front, err = ParetoOf(r, ParetoSpec{X: "b", XGoal: "min", Y: "a", YGoal: "min"})
	require.NoError(t, err)
	assert.Equal(t, "FDHBA", ids(front))

	_, err = Pareto(r, "a", false, "zz", false)
	assert.Error(t, err)
}
