package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/fabricmodel/fabricmodel/explore"
	"github.com/olekukonko/tablewriter"
	"github.com/urfave/cli/v2"
)

func init() { commands = append(commands, exploreCommand()) }

func exploreCommand() *cli.Command {
	out := &cli.StringFlag{Name: "out", Usage: "output `DIR` (default: the sweep file's name with .out)"}
	return &cli.Command{
		Name:  "explore",
		Usage: "parameter sweeps: run locally or as a SLURM array job, merge, report",
		Description: "A sweep file names an evaluator (budget, incast, scenario), the parameters to vary (grid, random or\n" +
			"Latin-hypercube design), a seed and the metrics to collect; see docs/explore.md. Each point\n" +
			"writes DIR/points/ID.json; a rerun skips points already done.",
		Subcommands: []*cli.Command{
			{
				Name: "run", Usage: "evaluate the sweep's points (or one shard) on every core", ArgsUsage: "SWEEP.yaml",
				Flags: []cli.Flag{out,
					&cli.IntFlag{Name: "workers", Aliases: []string{"j"}, Usage: "points at once (0: every CPU)"},
					&cli.StringFlag{Name: "shard", Usage: "run shard `i/N` only (0 <= i < N)"},
				},
				Action: exploreRun,
			},
			{
				Name: "slurm", Usage: "write (and with --submit, submit) an sbatch array job running the shards", ArgsUsage: "SWEEP.yaml",
				Flags: []cli.Flag{out,
					&cli.IntFlag{Name: "shards", Value: 8, Usage: "array tasks, one shard each"},
					&cli.IntFlag{Name: "workers", Value: 1, Usage: "points at once per task (its CPUs)"},
					&cli.StringFlag{Name: "binary", Usage: "fabricmodel `PATH` the tasks run (default: this one)"},
					&cli.StringFlag{Name: "script", Usage: "script `FILE` (default: DIR/explore.sbatch)"},
					&cli.StringFlag{Name: "partition", Usage: "SLURM partition"},
					&cli.StringFlag{Name: "time", Usage: "SLURM time limit per task"},
					&cli.StringSliceFlag{Name: "sbatch", Usage: "extra #SBATCH `OPTION` (repeatable)"},
					&cli.BoolFlag{Name: "submit", Usage: "submit the script with sbatch"},
				},
				Action: exploreSlurm,
			},
			{
				Name: "merge", Usage: "gather result files into one CSV and one JSON, every point exactly once", ArgsUsage: "SWEEP.yaml",
				Flags: []cli.Flag{out,
					&cli.StringSliceFlag{Name: "from", Usage: "also gather from output `DIR` (repeatable)"},
					&cli.StringFlag{Name: "csv", Usage: "CSV `FILE` (default: DIR/results.csv)"},
					&cli.StringFlag{Name: "json", Usage: "JSON `FILE` (default: DIR/results.json)"},
				},
				Action: exploreMerge,
			},
			{
				Name: "report", Usage: "table of points, Pareto front and plots of a finished sweep", ArgsUsage: "SWEEP.yaml",
				Flags: []cli.Flag{out,
					&cli.StringFlag{Name: "plots", Usage: "`DIR` for the sweep's plot files (default: the output directory)"},
				},
				Action: exploreReport,
			},
			{
				Name: "list", Usage: "evaluators with their parameters and metrics", ArgsUsage: "[EVALUATOR]",
				Action: exploreList,
			},
		},
	}
}

// exploreSweepArg reads the sweep file argument and the output directory.
func exploreSweepArg(c *cli.Context) (*explore.Sweep, string, string, error) {
	if c.NArg() != 1 {
		return nil, "", "", fmt.Errorf("explore %s: want one sweep file", c.Command.Name)
	}
	path := c.Args().First()
	s, err := explore.LoadSweep(path)
	if err != nil {
		return nil, "", "", err
	}
	dir := c.String("out")
	if dir == "" {
		dir = strings.TrimSuffix(path, filepath.Ext(path)) + ".out"
	}
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return nil, "", "", outDirError(c, dir, errors.New("not a directory"))
	}
	return s, path, dir, nil
}

// outDirError says that the output directory dir cannot be used, naming
// where it came from: --out, or the sweep file's name.
func outDirError(c *cli.Context, dir string, err error) error {
	if c.IsSet("out") {
		return fmt.Errorf("--out %s: %w", dir, err)
	}
	return fmt.Errorf("output directory %s (the sweep file's name with .out; choose another with --out): %w", dir, err)
}

// makeOutDir creates the output directory and its points directory.
func makeOutDir(c *cli.Context, dir string) error {
	if err := os.MkdirAll(filepath.Join(dir, "points"), 0o755); err != nil {
		return outDirError(c, dir, err)
	}
	return nil
}

func exploreRun(c *cli.Context) error {
	s, _, dir, err := exploreSweepArg(c)
	if err != nil {
		return err
	}
	opt := explore.RunOptions{Dir: dir, Workers: c.Int("workers")}
	if sh := c.String("shard"); sh != "" {
		if opt.Shard, err = explore.ParseShard(sh); err != nil {
			return err
		}
	}
	if err := makeOutDir(c, dir); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt)
	defer stop()
	pts, err := s.Points()
	if err != nil {
		return err
	}
	bar := newProgress("explore "+s.Name, len(opt.Shard.Select(pts)))
	opt.Progress = func(n, _ int) { bar.set(n) }
	st, err := explore.Run(ctx, s, opt)
	bar.done()
	fmt.Fprintf(c.App.Writer, "explore %s: shard %s: %d points, %d already done, %d evaluated, %d failed; results in %s\n",
		s.Name, opt.Shard, st.Points, st.Skipped, st.Evaluated, st.Failed, filepath.Join(dir, "points"))
	if err == context.Canceled {
		return fmt.Errorf("interrupted: rerun the same command to finish the sweep")
	}
	return err
}

func exploreSlurm(c *cli.Context) error {
	_, path, dir, err := exploreSweepArg(c)
	if err != nil {
		return err
	}
	bin := c.String("binary")
	if bin == "" {
		if bin, err = os.Executable(); err != nil {
			return err
		}
	}
	if err := checkSlurmFlags(c); err != nil {
		return err
	}
	j := explore.SlurmJob{Shards: c.Int("shards"), Workers: c.Int("workers"),
		Partition: c.String("partition"), Time: c.String("time"), Extra: c.StringSlice("sbatch")}
	for _, p := range []struct {
		dst *string
		src string
	}{{&j.Binary, bin}, {&j.SweepFile, path}, {&j.Dir, dir}} {
		if *p.dst, err = filepath.Abs(p.src); err != nil {
			return err
		}
	}
	if err := makeOutDir(c, j.Dir); err != nil {
		return err
	}
	script := c.String("script")
	if script == "" {
		script = filepath.Join(j.Dir, "explore.sbatch")
	}
	f, err := os.Create(script)
	if err != nil {
		return err
	}
	err = explore.WriteSlurmScript(f, j)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(c.App.Writer, "wrote %s: %d array tasks\n", script, j.Shards)
	if !c.Bool("submit") {
		return nil
	}
	out, err := exec.CommandContext(c.Context, "sbatch", "--parsable", script).CombinedOutput()
	if err != nil {
		return fmt.Errorf("sbatch: %v: %s", err, strings.TrimSpace(string(out)))
	}
	fmt.Fprintf(c.App.Writer, "submitted job %s\n", strings.TrimSpace(string(out)))
	return nil
}

// checkSlurmFlags refuses flag values that cannot be written into the job
// script (a newline would end an #SBATCH line and start a shell command),
// naming the flag.
func checkSlurmFlags(c *cli.Context) error {
	for _, name := range []string{"partition", "time", "binary", "out", "script"} {
		if err := explore.CheckSlurmValue(c.String(name)); err != nil {
			return fmt.Errorf("--%s %q: %w", name, c.String(name), err)
		}
	}
	for _, x := range c.StringSlice("sbatch") {
		if err := explore.CheckSlurmOption(x); err != nil {
			return fmt.Errorf("--sbatch %q: %w", x, err)
		}
	}
	return nil
}

func exploreMerge(c *cli.Context) error {
	s, _, dir, err := exploreSweepArg(c)
	if err != nil {
		return err
	}
	res, err := explore.Merge(s, append([]string{dir}, c.StringSlice("from")...)...)
	if err != nil {
		return err
	}
	csvPath, jsonPath := c.String("csv"), c.String("json")
	if csvPath == "" {
		csvPath = filepath.Join(dir, "results.csv")
	}
	if jsonPath == "" {
		jsonPath = filepath.Join(dir, "results.json")
	}
	if err := res.WriteFiles(csvPath, jsonPath); err != nil {
		return err
	}
	fmt.Fprintf(c.App.Writer, "merged %d points into %s and %s\n", len(res.Points), csvPath, jsonPath)
	return nil
}

func exploreReport(c *cli.Context) error {
	s, sweepPath, dir, err := exploreSweepArg(c)
	if err != nil {
		return err
	}
	res, err := explore.Merge(s, dir)
	if err != nil {
		return err
	}
	w := c.App.Writer
	fmt.Fprintf(w, "%s: %d points\n", s.Name, len(res.Points))
	if err := explore.WriteTable(w, res, res.Points); err != nil {
		return err
	}
	if p := s.Pareto; p != nil {
		front, err := explore.ParetoOf(res, *p)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "\nPareto front of %s (%s) and %s (%s): %d of %d points\n", p.X, p.XGoal, p.Y, p.YGoal, len(front), len(res.Points))
		if err := explore.WriteTable(w, res, front); err != nil {
			return err
		}
	}
	plots := c.String("plots")
	if plots == "" {
		plots = dir
	}
	for i, p := range s.Plots {
		path := p.File
		if !filepath.IsAbs(path) {
			path = filepath.Join(plots, path)
		}
		// Name the plot (and --plots, when the directory came from it)
		// rather than give a bare "mkdir ...".
		what := fmt.Sprintf("plot %d of %s (%s against %s) to %s", i, sweepPath, p.Y, p.X, path)
		if c.IsSet("plots") && !filepath.IsAbs(p.File) {
			what = "--plots " + plots + ": " + what
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		if err := explore.Plot(res, p, path); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		fmt.Fprintf(w, "plotted %s against %s in %s\n", p.Y, p.X, path)
	}
	return nil
}

func exploreList(c *cli.Context) error {
	names := explore.Evaluators()
	if c.NArg() > 0 {
		names = c.Args().Slice()
	}
	w := c.App.Writer
	for _, n := range names {
		ev, err := explore.NewEvaluator(n)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "evaluator %s\n", n)
		t := tablewriter.NewWriter(w)
		t.Header("kind", "name", "unit", "meaning")
		for _, p := range ev.Params() {
			_ = t.Append("parameter", p[0], p[1], p[2])
		}
		for _, m := range ev.Metrics() {
			_ = t.Append("metric", m.Name, m.Unit, m.Doc)
		}
		if err := t.Render(); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	return nil
}
