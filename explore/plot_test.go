package explore

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPlotWritesAPNG(t *testing.T) {
	s := gridSweep(t, 4, 3)
	dir := t.TempDir()
	_, err := Run(context.Background(), s, RunOptions{Dir: dir, Evaluator: &countEvaluator{}})
	require.NoError(t, err)
	res, err := Merge(s, dir)
	require.NoError(t, err)
	for _, spec := range []PlotSpec{{X: "x", Y: "f", Series: "y"}, {X: "y", Y: "g", LogX: true}} {
		path := filepath.Join(dir, spec.X+".png")
		require.NoError(t, Plot(res, spec, path))
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		img, err := png.Decode(bytes.NewReader(data))
		require.NoError(t, err)
		assert.Greater(t, img.Bounds().Dx(), 300)
		assert.Greater(t, img.Bounds().Dy(), 200)
	}
	assert.Error(t, Plot(res, PlotSpec{X: "x", Y: "nope"}, filepath.Join(dir, "bad.png")))
}

func TestTableListsPointsAndMetrics(t *testing.T) {
	s := gridSweep(t, 2, 2)
	dir := t.TempDir()
	_, err := Run(context.Background(), s, RunOptions{Dir: dir, Evaluator: &countEvaluator{}})
	require.NoError(t, err)
	res, err := Merge(s, dir)
	require.NoError(t, err)
	var b bytes.Buffer
	require.NoError(t, WriteTable(&b, res, res.Points))
	for _, want := range []string{"id", "x", "y", "f", "g", res.Points[3].ID} {
		assert.Contains(t, b.String(), want)
	}
}
