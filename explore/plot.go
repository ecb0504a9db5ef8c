package explore

import (
	"fmt"
	"image/color"
	"math"
	"sort"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// Plot draws metric y against swept parameter x as a PNG (or SVG, PDF by
// the file's extension), one line per value of parameter series (none
// when series is empty). Parameter values must be numbers.
func Plot(r *Results, spec PlotSpec, path string) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: %s against %s", r.Sweep, spec.Y, spec.X)
	p.X.Label.Text = spec.X
	p.Y.Label.Text = spec.Y
	if spec.LogX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	p.Legend.Top = true
	groups := map[string]plotter.XYs{}
	var keys []string
	for _, pt := range r.Points {
		xs, _ := pt.Param(spec.X)
		x, err := strconv.ParseFloat(xs, 64)
		if err != nil {
			return fmt.Errorf("plot: %s=%q is not a number", spec.X, xs)
		}
		y, ok := pt.Metric(spec.Y)
		if !ok {
			return fmt.Errorf("plot: no metric %q", spec.Y)
		}
		key := ""
		if spec.Series != "" {
			key, _ = pt.Param(spec.Series)
		}
		if _, ok := groups[key]; !ok {
			keys = append(keys, key)
		}
		groups[key] = append(groups[key], plotter.XY{X: x, Y: y})
	}
	sortKeys(keys)
	for i, k := range keys {
		xys := groups[k]
		sort.SliceStable(xys, func(a, b int) bool { return xys[a].X < xys[b].X })
		line, points, err := plotter.NewLinePoints(xys)
		if err != nil {
			return err
		}
		c := plotutil.Color(i)
		line.Color, points.Color = c, c
		line.Width = vg.Points(1.5)
		points.Shape = plotutil.Shape(i)
		p.Add(line, points)
		if spec.Series != "" {
			p.Legend.Add(spec.Series+"="+k, line, points)
		}
	}
	if spec.Series != "" && len(keys) > 0 {
		// Head room for the legend above the highest line.
		p.Y.Max += (p.Y.Max - p.Y.Min) * 0.12 * float64(len(keys)+1)
	}
	p.Add(plotter.NewGrid())
	p.BackgroundColor = color.White
	return p.Save(18*vg.Centimeter, 11*vg.Centimeter, path)
}

// sortKeys orders series labels numerically where they are numbers.
func sortKeys(keys []string) {
	sort.SliceStable(keys, func(i, j int) bool {
		a, ea := strconv.ParseFloat(keys[i], 64)
		b, eb := strconv.ParseFloat(keys[j], 64)
		if ea == nil && eb == nil {
			return a < b
		}
		return keys[i] < keys[j]
	})
}

// roundSig rounds v to n significant digits.
func roundSig(v float64, n int) float64 {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return v
	}
	f, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', n, 64), 64)
	return f
}
