package explore

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMergeWritesCSVAndJSONInDesignOrder(t *testing.T) {
	s := gridSweep(t, 2, 3)
	dir := t.TempDir()
	_, err := Run(context.Background(), s, RunOptions{Dir: dir, Evaluator: &countEvaluator{}})
	require.NoError(t, err)
	out := mergedBytes(t, s, dir)
	lines := strings.Split(strings.TrimSpace(out[0]), "\n")
	require.Len(t, lines, 7)
	assert.Equal(t, "id,index,seed,x,y,f,g", lines[0])
	pts, _ := s.Points()
	assert.True(t, strings.HasPrefix(lines[6], pts[5].ID+",5,"))
	assert.True(t, strings.HasSuffix(lines[6], ",2,3,6,"+FormatValue(5+float64(pts[5].Seed%2))))
	assert.Contains(t, out[1], `"evaluator": "count"`)
}

func TestMergeNamesMissingDuplicateAndForeignPoints(t *testing.T) {
	s := gridSweep(t, 3, 3)
	a, b := t.TempDir(), t.TempDir()
	_, err := Run(context.Background(), s, RunOptions{Dir: a, Shard: Shard{0, 2}, Evaluator: &countEvaluator{}})
	require.NoError(t, err)
	_, err = Run(context.Background(), s, RunOptions{Dir: b, Shard: Shard{1, 2}, Evaluator: &countEvaluator{}})
	require.NoError(t, err)
	_, err = Merge(s, a, b)
	require.NoError(t, err)

	pts, _ := s.Points()
	// Missing: only one shard.
	_, err = Merge(s, a)
	require.Error(t, err)
	for _, p := range pts {
		if p.Index%2 == 1 {
			assert.Contains(t, err.Error(), "missing point "+p.ID+" ("+describe(p.Params)+")")
		} else {
			assert.NotContains(t, err.Error(), p.ID)
		}
	}
	assert.Contains(t, err.Error(), "5 of 9 points merged")

	// Duplicate: the same point in two directories.
	data, err := os.ReadFile(resultPath(a, pts[0].ID))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(resultPath(b, pts[0].ID), data, 0o644))
	_, err = Merge(s, a, b)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "duplicate point "+pts[0].ID)
	assert.Contains(t, err.Error(), resultPath(a, pts[0].ID))
	assert.Contains(t, err.Error(), resultPath(b, pts[0].ID))
	require.NoError(t, os.Remove(resultPath(b, pts[0].ID)))

	// Foreign: a result of another sweep.
	other := gridSweep(t, 4, 4)
	c := t.TempDir()
	_, err = Run(context.Background(), other, RunOptions{Dir: c, Evaluator: &countEvaluator{}})
	require.NoError(t, err)
	_, err = Merge(s, a, b, c)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "is not a point of this sweep")

	// A result file whose values were edited does not match its point.
	edited := strings.Replace(string(data), `"value": "1"`, `"value": "9"`, 1)
	require.NoError(t, os.WriteFile(resultPath(a, pts[0].ID), []byte(edited), 0o644))
	_, err = Merge(s, a, b)
	require.ErrorContains(t, err, "does not match")
	require.ErrorContains(t, err, "missing point "+pts[0].ID)
}

func TestMergeIgnoresOtherFiles(t *testing.T) {
	s := gridSweep(t, 2, 2)
	dir := t.TempDir()
	_, err := Run(context.Background(), s, RunOptions{Dir: dir, Evaluator: &countEvaluator{}})
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "points", "notes.txt"), []byte("x"), 0o644))
	_, err = Merge(s, dir)
	require.NoError(t, err)
}

// A directory named twice, as --out and again in --from, by another
// spelling or through a link, is read once: its points are not each
// found twice in the same file.
func TestMergeReadsADirectoryGivenTwiceOnce(t *testing.T) {
	s := gridSweep(t, 3, 3)
	a := t.TempDir()
	_, err := Run(context.Background(), s, RunOptions{Dir: a, Evaluator: &countEvaluator{}})
	require.NoError(t, err)
	link := filepath.Join(t.TempDir(), "link")
	require.NoError(t, os.Symlink(a, link))
	t.Chdir(filepath.Dir(a))
	res, err := Merge(s, a, a, "./"+filepath.Base(a)+"/", link)
	require.NoError(t, err)
	require.Len(t, res.Points, 9)
}
