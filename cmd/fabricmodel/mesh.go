package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/rtlmodel/mesh"
	"github.com/olekukonko/tablewriter"
	"github.com/urfave/cli/v2"
)

func init() { commands = append(commands, meshCommand()) }

func meshCommand() *cli.Command {
	def := mesh.DefaultConfig()
	return &cli.Command{
		Name:  "mesh",
		Usage: "run the kernel's demonstration model: a credit-flow-controlled mesh with bursty traffic",
		Description: "Builds a WxH mesh of 5-port routers (1.25 GHz) with one traffic endpoint per router (1.6 GHz),\n" +
			"runs every endpoint's bursts to completion and prints flit counts, latency and router load,\n" +
			"then the run's speed. The same seed gives byte-identical traces and stats.",
		Flags: []cli.Flag{
			&cli.Uint64Flag{Name: "seed", Value: def.Engine.Seed, Usage: "seed of every component's RNG stream"},
			&cli.IntFlag{Name: "width", Value: def.Width, Usage: "mesh columns (--width × --height: 2 to 65536 routers)"},
			&cli.IntFlag{Name: "height", Value: def.Height, Usage: "mesh rows"},
			&cli.IntFlag{Name: "bursts", Value: def.Traffic.Bursts, Usage: "bursts per endpoint"},
			&cli.IntFlag{Name: "burst-mean", Value: def.Traffic.BurstMean, Usage: "mean flits per burst"},
			&cli.IntFlag{Name: "gap-mean", Value: def.Traffic.GapMean, Usage: "mean idle gap between bursts, in endpoint cycles"},
			&cli.IntFlag{Name: "buffer", Value: def.BufferDepth, Usage: "input buffer depth in flits (link credits)"},
			&cli.BoolFlag{Name: "always-tick", Usage: "evaluate every component every cycle (proof mode; same results, slower)"},
			&cli.BoolFlag{Name: "shuffle", Usage: "shuffle the Eval order at every edge (proof mode; same results)"},
			&cli.StringFlag{Name: "trace", Usage: "write every link transfer as JSON Lines to `FILE`"},
			&cli.StringFlag{Name: "vcd", Usage: "write every link's transfer count as a VCD to `FILE`"},
			&cli.StringFlag{Name: "stats-json", Usage: "write all counters and histograms as JSON to `FILE`"},
			&cli.StringFlag{Name: "stats-csv", Usage: "write all counters and histograms as CSV to `FILE`"},
		},
		Action: runMesh,
	}
}

func runMesh(c *cli.Context) error {
	if err := checkNoArgs(c); err != nil {
		return err
	}
	cfg, err := meshConfig(c)
	if err != nil {
		return err
	}
	if err := checkOutputFiles(c, "", "trace", "vcd", "stats-json", "stats-csv"); err != nil {
		return err
	}
	m, err := mesh.Build(cfg)
	if err != nil {
		return err
	}
	var closers []func() error
	if path := c.String("trace"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			return outputError("trace", path, err)
		}
		sink := rtlmodel.NewTraceSink(f)
		sink.Attach(m.Engine)
		closers = append(closers, sink.Flush, f.Close)
	}
	if path := c.String("vcd"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			return outputError("vcd", path, err)
		}
		probe, err := mesh.AttachVCD(m, f)
		if err != nil {
			return err
		}
		closers = append(closers, probe.Close, f.Close)
	}

	bar := newProgress("simulating", 1000)
	start := time.Now()
	step := 20 * rtlmodel.Microsecond
	var runErr error
	for until := step; ; until += step {
		runErr = m.Engine.Run(until)
		bar.set(int(1000 * m.Progress()))
		if runErr != nil || m.Engine.Now() < until {
			break
		}
	}
	wall := time.Since(start)
	bar.done()
	m.Engine.Finish()
	for _, cl := range closers {
		if err := cl(); err != nil && runErr == nil {
			runErr = err
		}
	}
	if runErr != nil {
		return runErr
	}
	if err := writeStats(m.Engine.Stats(), c.String("stats-json"), c.String("stats-csv")); err != nil {
		return err
	}
	printMeshReport(c.App.Writer, m.Report())
	printSpeed(c.App.Writer, m.Engine, wall)
	return nil
}

// writeStats writes the registry's metrics as JSON to jsonPath and as
// CSV to csvPath, each when not "": the files of the flags --stats-json
// and --stats-csv, which its errors name.
func writeStats(reg *rtlmodel.Registry, jsonPath, csvPath string) error {
	write := func(path string, fn func(io.Writer) error) error {
		if path == "" {
			return nil
		}
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		if err := fn(f); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	}
	if err := write(jsonPath, reg.WriteJSON); err != nil {
		return outputError("stats-json", jsonPath, err)
	}
	if err := write(csvPath, reg.WriteCSV); err != nil {
		return outputError("stats-csv", csvPath, err)
	}
	return nil
}

func printMeshReport(w io.Writer, r mesh.Report) {
	t := tablewriter.NewWriter(w)
	t.Header("quantity", "value")
	ns := func(ps uint64) string { return fmt.Sprintf("%.1f ns", float64(ps)/1e3) }
	rows := [][]string{
		{"routers / endpoints", fmt.Sprintf("%d / %d", r.Routers, r.Endpoints)},
		{"simulated time", r.SimTime.String()},
		{"router cycles", fmt.Sprint(r.RouterCycles)},
		{"flits sent / delivered", fmt.Sprintf("%d / %d", r.Sent, r.Received)},
		{"latency p50", ns(r.Latency.Percentile(0.5))},
		{"latency p99", ns(r.Latency.Percentile(0.99))},
		{"latency max", ns(r.Latency.Max())},
		{"router load mean / max", fmt.Sprintf("%.4f / %.4f flits/cycle", r.MeanRouterLoad, r.MaxRouterLoad)},
	}
	for _, row := range rows {
		_ = t.Append(row)
	}
	_ = t.Render()
}

func printSpeed(w io.Writer, e *rtlmodel.Engine, wall time.Duration) {
	sec := wall.Seconds()
	var edges, compCycles uint64
	for _, d := range e.Domains() {
		edges += d.Edges()
		compCycles += d.Cycles() * uint64(d.Components())
	}
	fmt.Fprintf(w, "speed: %.3f s wall for %v simulated: %.3g component-cycles/s, %.3g link transfers/s, %.3g edges/s;\n",
		sec, e.Now(), float64(compCycles)/sec, float64(e.Progress())/sec, float64(edges)/sec)
	fmt.Fprintf(w, "       %d Evals for %d component-cycles (%.2f%%: idle skipping left out the rest)\n",
		e.Evals(), compCycles, 100*float64(e.Evals())/float64(max(compCycles, 1)))
}
