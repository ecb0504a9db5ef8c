package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/fabricmodel/fabricmodel/fabric"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// The files writePlots writes in its directory.
const (
	fctPlotFile      = "fct_cdf.png"
	linkUtilPlotFile = "link_utilisation_cdf.png"
	queuesPlotFile   = "queues.png"
)

// plotFiles are the names of every file writePlots may write in its
// directory, which no other output of a run may take.
var plotFiles = []string{fctPlotFile, linkUtilPlotFile, queuesPlotFile}

// skippedPlot is a plot writePlots left out for want of data, and why.
type skippedPlot struct {
	file, reason string
}

// writePlots draws the FCT CDF, the hottest queues over time and the
// distribution of link utilisation as PNG files in dir. A plot with no
// data to draw is left out and returned among the skipped, with why.
func writePlots(dir string, res *fabric.Results) ([]skippedPlot, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var skipped []skippedPlot
	if len(res.PerFlow) == 0 {
		skipped = append(skipped, skippedPlot{fctPlotFile, "no flow completed"})
	} else {
		fct := make([]float64, len(res.PerFlow))
		for i, f := range res.PerFlow {
			fct[i] = f.FCTNS / 1e3
		}
		if err := cdfPlot(filepath.Join(dir, fctPlotFile), "Flow completion time", "FCT (us)", fct); err != nil {
			return nil, err
		}
	}
	if len(res.LinkUtilization) == 0 {
		skipped = append(skipped, skippedPlot{linkUtilPlotFile, "no switch port sent a frame"})
	} else {
		if err := cdfPlot(filepath.Join(dir, linkUtilPlotFile), "Switch egress link utilisation",
			"utilisation", res.LinkUtilization); err != nil {
			return nil, err
		}
	}
	if len(res.HottestQueues) == 0 {
		skipped = append(skipped, skippedPlot{queuesPlotFile, "no switch egress queue held a byte at any sample (taken every --step-us)"})
	} else {
		p := plot.New()
		p.Title.Text = "Hottest egress queues"
		p.X.Label.Text = "time (us)"
		p.Y.Label.Text = "queue (KB)"
		var args []any
		for _, q := range res.HottestQueues {
			pts := make(plotter.XYs, len(q.AtUS))
			for i := range q.AtUS {
				pts[i].X, pts[i].Y = q.AtUS[i], float64(q.Bytes[i])/1e3
			}
			args = append(args, q.Name, pts)
		}
		if err := plotutil.AddLines(p, args...); err != nil {
			return nil, err
		}
		if err := p.Save(8*vg.Inch, 4*vg.Inch, filepath.Join(dir, queuesPlotFile)); err != nil {
			return nil, err
		}
	}
	return skipped, nil
}

// cdfPlot draws the empirical CDF of values.
func cdfPlot(path, title, xlabel string, values []float64) error {
	v := append([]float64(nil), values...)
	sort.Float64s(v)
	pts := make(plotter.XYs, len(v))
	for i, x := range v {
		pts[i].X, pts[i].Y = x, float64(i+1)/float64(len(v))
	}
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xlabel
	p.Y.Label.Text = "CDF"
	l, err := plotter.NewLine(pts)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	p.Add(l)
	return p.Save(6*vg.Inch, 4*vg.Inch, path)
}
