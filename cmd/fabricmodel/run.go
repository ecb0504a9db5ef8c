package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fabricmodel/fabricmodel/fabric"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/olekukonko/tablewriter"
	"github.com/urfave/cli/v2"
)

func init() { commands = append(commands, runCommand()) }

// completeRun runs a fabric to its end (fabric.Run.Complete). A test
// stands in for it to end a run with an error of the model's, which no
// scenario is known to reach.
var completeRun = (*fabric.Run).Complete

func runCommand() *cli.Command {
	return &cli.Command{
		Name:      "run",
		Usage:     "simulate a fabric scenario (the embedded default when no file is given)",
		ArgsUsage: "[scenario.yaml]",
		Description: "Builds the scenario's topology of NICs and switches, runs its workload to completion\n" +
			"and prints flow completion times, job completion times, goodput, link utilisation, queue\n" +
			"depth, PFC, ECN, trims, drops (the switches' and the NICs'), retransmits and packets\n" +
			"received twice, then the run's speed. Settings that leave a mechanism nothing to do are\n" +
			"named first, in notes on the error output; notes on what the results show that the table\n" +
			"does not say (a DCQCN that never cut a rate, a trim storm, flows that ran out of retries)\n" +
			"come last. The same scenario and seed give byte-identical --json output. An interrupt\n" +
			"(Ctrl-C) ends the run soon after, within a --step-us step (with --lockstep at its end),\n" +
			"with the results, outputs and trace of the run so far; a second ends the process at once,\n" +
			"with status 130.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "json", Usage: "write the results as JSON to `FILE`"},
			&cli.StringFlag{Name: "csv", Usage: "write per-flow results as CSV to `FILE`"},
			&cli.StringFlag{Name: "stats-json", Usage: "write every device counter, gauge and histogram (per port, queue, NIC and link) as JSON to `FILE`"},
			&cli.StringFlag{Name: "stats-csv", Usage: "write every device counter, gauge and histogram as CSV to `FILE`"},
			&cli.StringFlag{Name: "plots", Usage: "write PNG plots (FCT CDF, hottest queues, link utilisation) to `DIR`"},
			&cli.StringFlag{Name: "trace", Usage: "write every hop of the --trace-flows flows' frames (data, ACKs, CNPs) as JSON Lines to `FILE`, in the order of their times"},
			&cli.StringFlag{Name: "trace-flows", Value: "0", Usage: "the flows --trace and --pcap follow: `IDS` as in the --csv output, comma-separated (ranges as 4-7)"},
			&cli.StringFlag{Name: "pcap", Usage: "write the --trace-flows flows' frames on every cable as a pcapng capture to `FILE` (Wireshark, tcpdump): an interface per cable direction, each frame's headers as they were on that cable, its payload left out"},
			&cli.StringSliceFlag{Name: "set", Usage: "write `KEY=VALUE` over the scenario's key (a dotted path such as nic.cc, a YAML value such as hpcc or [0, 3]); repeatable, each key once"},
			&cli.Uint64Flag{Name: "seed", Usage: "override the scenario's seed (after --set)"},
			&cli.Float64Flag{Name: "step-us", Value: 10, Usage: "simulated microseconds between progress updates and queue samples"},
			&cli.StringFlag{Name: "cpuprofile", Usage: "write a pprof CPU profile of the simulation to `FILE`"},
			&cli.StringFlag{Name: "memprofile", Usage: "write a pprof heap profile, taken when the run ends, to `FILE`"},
			&cli.BoolFlag{Name: "huge-pages", Value: true, Usage: "on Linux, map the heap for transparent huge pages before building the model (fewer TLB misses on large fabrics; --huge-pages=false keeps the system's default)"},
			&cli.BoolFlag{Name: "always-tick", Usage: "evaluate every component at every clock edge (slow; the results must not change)"},
			&cli.BoolFlag{Name: "lockstep", Usage: "run all devices edge by edge instead of each for a window of the lookahead (slow; the results must not change)"},
			&cli.Uint64Flag{Name: "shuffle-seed", Usage: "evaluate the components of each edge in an order drawn from `SEED` (the results must not change)"},
		},
		Action: runScenario,
	}
}

func runScenario(c *cli.Context) error {
	if err := checkScenarioArgs(c); err != nil {
		return err
	}
	step, err := stepFlag(c)
	if err != nil {
		return err
	}
	traceSpans, err := traceFlowsFlag(c)
	if err != nil {
		return err
	}
	settings, err := settingsFlag(c)
	if err != nil {
		return err
	}
	var sc *fabric.Scenario
	scenarioPath := c.Args().First()
	if scenarioPath != "" {
		sc, err = fabric.LoadScenarioWith(scenarioPath, settings)
	} else {
		sc, err = fabric.DefaultScenarioWith(settings)
	}
	if err != nil {
		return err
	}
	// the scenario says what files the run reads, which no output may be;
	// the model is built after the check
	if err := checkOutputs(c, scenarioInputs(scenarioPath, sc)); err != nil {
		return err
	}
	if c.IsSet("seed") {
		sc.Seed = c.Uint64("seed")
	}
	build := time.Now()
	pacer := startHeapPacer()
	defer pacer.stop()
	if c.Bool("huge-pages") {
		// a hint: where the kernel refuses, the run goes on with small pages
		_, _ = preferHugePages()
	}
	r, err := fabric.NewRunMode(sc, fabric.EngineMode{AlwaysTick: c.Bool("always-tick"), ShuffleSeed: c.Uint64("shuffle-seed"), Lockstep: c.Bool("lockstep")})
	if err != nil {
		return err
	}
	for _, n := range r.Notes() {
		fmt.Fprintf(c.App.ErrWriter, "fabricmodel: %s\n", n)
	}
	trace, err := startTrace(c, r, traceSpans)
	if err != nil {
		return err
	}
	defer trace.close()
	pacer.built()
	buildWall := time.Since(build)
	if path := c.String("cpuprofile"); path != "" {
		// nothing has run yet: a failure here leaves no empty trace
		f, err := os.Create(path)
		if err != nil {
			trace.abandon()
			return outputError("cpuprofile", path, err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			os.Remove(path)
			trace.abandon()
			return fmt.Errorf("--cpuprofile %s: %w", path, err)
		}
		defer func() { pprof.StopCPUProfile(); f.Close() }()
	}
	// an interrupt ends the run early with what it has so far; a second
	// one ends the process
	ctx, stop := interruptContext(c.Context, c.App.ErrWriter)
	defer stop()
	bar := newProgress("flows", len(r.Flows))
	cpuStart, _, cpuOK := processUsage()
	start := time.Now()
	err = completeRun(r, ctx, rtlmodel.Time(step), 0, func(done int) {
		bar.set(done)
		trace.step(r)
	})
	wall := time.Since(start)
	speed := runSpeed{wall: wall, build: buildWall}
	if cpuEnd, _, ok := processUsage(); ok && cpuOK {
		speed.cpu, speed.cpuKnown = cpuEnd.since(cpuStart), true
	}
	bar.done()
	// the trace up to an error is what shows how the run got there
	traceErr := trace.finish()
	// flows that failed end the run with an error, after the results of
	// the others: they are the run's data too
	var failed *fabric.FlowsFailedError
	interrupted := errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
	// a stalled run (nothing scheduled, or the watchdog's no progress)
	// keeps its results and outputs too: they are what shows the stall
	var quiet *fabric.QuietError
	var deadlock *rtlmodel.DeadlockError
	stalled := errors.As(err, &quiet) || errors.As(err, &deadlock)
	if err != nil && !errors.As(err, &failed) && !interrupted && !stalled {
		return errors.Join(err, traceErr)
	}
	if path := c.String("memprofile"); path != "" {
		if err := writeHeapProfile(path); err != nil {
			return outputError("memprofile", path, err)
		}
	}
	res := r.Results()
	printResults(c.App.Writer, res)
	if err := writeOutputs(c, res); err != nil {
		return err
	}
	if err := writeStats(r.Cluster.Engine.Stats(), c.String("stats-json"), c.String("stats-csv")); err != nil {
		return err
	}
	if traceErr != nil {
		return traceErr
	}
	printRunSpeed(c.App.Writer, r, res, speed)
	for _, n := range r.ResultNotes(res) {
		fmt.Fprintf(c.App.ErrWriter, "fabricmodel: %s\n", n)
	}
	if stalled {
		return fmt.Errorf("%w\nthe results and outputs are those of the run up to then", err)
	}
	if interrupted {
		return fmt.Errorf("interrupted at %v simulated with %d of %d flows complete: the results and outputs are those of the run up to then",
			r.Cluster.Engine.Now(), r.Done(), len(r.Flows))
	}
	if failed != nil {
		// what the run shows of why, on lines of their own after the
		// flows' error, as the scenario's notes are printed
		var why []error
		for _, n := range r.FailureNotes(res) {
			why = append(why, errors.New("fabricmodel: "+n))
		}
		if len(why) > 0 {
			return fmt.Errorf("%w\n%w", failed, errors.Join(why...))
		}
		return failed
	}
	if r.Done() < len(r.Flows) {
		// the run stopped at the scenario's time limit
		return fmt.Errorf("stopped at the scenario's max_time_us (%d us simulated) with %d of %d flows complete: the results and outputs are those of the run up to then",
			r.Scenario.MaxTimeUS, r.Done(), len(r.Flows))
	}
	return nil
}

// fctRow is the table's flow completion times, labelled as the completed
// flows' when some did not complete.
func fctRow(res *fabric.Results, ns func(float64) string) []string {
	return partialRow(res, "FCT p50 / p99 / max", fmt.Sprintf("%s / %s / %s", ns(res.FCTP50NS), ns(res.FCTP99NS), ns(res.FCTMaxNS)))
}

// goodputRow is the table's aggregate goodput, labelled likewise.
func goodputRow(res *fabric.Results) []string {
	if res.Completed == res.Flows {
		return []string{"goodput (all flows)", fmt.Sprintf("%.1f Gb/s", res.GoodputGbps)}
	}
	return partialRow(res, "goodput", fmt.Sprintf("%.1f Gb/s", res.GoodputGbps))
}

// partialRow is a row of a figure over the completed flows: as it is when
// every flow completed, marked as the completed flows' when some did not,
// and "no flow completed" instead of a figure when none did.
func partialRow(res *fabric.Results, label, value string) []string {
	switch {
	case res.Completed == 0:
		return []string{label, "no flow completed"}
	case res.Completed < res.Flows:
		return []string{label + " (completed flows)", value}
	}
	return []string{label, value}
}

// pausedRow is the table's PFC pause time: summed over the transmitters
// paused, and the longest of one; "none" when nothing was paused.
func pausedRow(res *fabric.Results, ns func(float64) string) []string {
	if res.PFCPausedNS == 0 {
		return []string{"PFC paused: sum / longest", "none"}
	}
	return []string{"PFC paused: sum / longest", fmt.Sprintf("%s / %s", ns(res.PFCPausedNS), ns(res.PFCPausedMaxNS))}
}

func printResults(w io.Writer, res *fabric.Results) {
	t := tablewriter.NewWriter(w)
	t.Header("metric", "value")
	ns := func(v float64) string { return fmt.Sprintf("%.2f us", v/1e3) }
	rows := [][]string{
		{"scenario / seed", fmt.Sprintf("%s / %d", res.Scenario, res.Seed)},
		{"endpoints / flows completed", fmt.Sprintf("%d / %d of %d", res.Endpoints, res.Completed, res.Flows)},
		{"simulated time", ns(res.SimTimeNS)},
		fctRow(res, ns),
		goodputRow(res),
		{"link utilisation mean / max", fmt.Sprintf("%.3f / %.3f", res.LinkUtilMean, res.LinkUtilMax)},
		{"max switch buffer", fmt.Sprintf("%.3f MB", float64(res.MaxQueueBytes)/1e6)},
		{"PFC frames / ECN marks / trims", fmt.Sprintf("%d / %d / %d", res.PFCFrames, res.ECNMarks, res.Trims)},
		pausedRow(res, ns),
		{"drops: switches / NICs", fmt.Sprintf("%d / %d", res.SwitchDrops, res.NICDrops)},
		{"retransmits / received twice", fmt.Sprintf("%d / %d", res.Retransmits, res.DuplicatesReceived)},
	}
	if len(res.Settings) > 0 {
		rows = slices.Insert(rows, 1, []string{"settings", strings.Join(res.Settings, ", ")})
	}
	if len(res.Failed) > 0 {
		rows = append(rows, []string{"flows failed", strconv.Itoa(len(res.Failed))})
	}
	if len(res.JobTimesNS) > 1 || (len(res.JobTimesNS) == 1 && res.Flows > 1) {
		jct := ""
		for i, j := range res.JobTimesNS {
			if i > 0 {
				jct += ", "
			}
			jct += ns(j)
		}
		label := "job completion time"
		if res.Completed < res.Flows {
			// a job's time counts the flows of it that completed
			label = "job time, completed flows only"
		}
		rows = append(rows, []string{label, jct})
	}
	for _, r := range rows {
		_ = t.Append(r)
	}
	_ = t.Render()
}

// writeOutputs writes the results to the files and the directory of
// --json, --csv and --plots; its errors name the flag. Each plot left out
// for want of data is said on the error writer.
func writeOutputs(c *cli.Context, res *fabric.Results) error {
	if path := c.String("json"); path != "" {
		if err := writeResultsJSON(path, res); err != nil {
			return outputError("json", path, err)
		}
	}
	if path := c.String("csv"); path != "" {
		if err := writeFlowsCSV(path, res); err != nil {
			return outputError("csv", path, err)
		}
	}
	if dir := c.String("plots"); dir != "" {
		skipped, err := writePlots(dir, res)
		if err != nil {
			return outputError("plots", dir, err)
		}
		for _, s := range skipped {
			fmt.Fprintf(c.App.ErrWriter, "fabricmodel: --plots %s: %s not drawn: %s\n", dir, s.file, s.reason)
		}
	}
	return nil
}

// writeResultsJSON writes the results as indented JSON to path.
func writeResultsJSON(path string, res *fabric.Results) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	enc.SetIndent("", " ")
	if err := enc.Encode(res); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// writeFlowsCSV writes a row of the results per flow as CSV to path.
func writeFlowsCSV(path string, res *fabric.Results) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	cw := csv.NewWriter(f)
	_ = cw.Write([]string{"id", "src", "dst", "bytes", "job", "start_ns", "fct_ns", "op"})
	for _, fl := range res.PerFlow {
		op := fl.Op
		if op == "" {
			op = "write"
		}
		_ = cw.Write([]string{strconv.Itoa(fl.ID), strconv.Itoa(fl.Src), strconv.Itoa(fl.Dst),
			strconv.FormatUint(fl.Bytes, 10), strconv.Itoa(fl.Job),
			strconv.FormatFloat(fl.StartNS, 'f', 3, 64), strconv.FormatFloat(fl.FCTNS, 'f', 3, 64), op})
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// runSpeed is what the speed line reports of the run itself: its wall
// time and CPU time (the simulation and its progress updates, the build
// not included), and the wall time of building the model before it.
type runSpeed struct {
	wall, build time.Duration
	cpu         cpuTime
	cpuKnown    bool
}

// printRunSpeed reports the run's speed and memory from the process itself.
// The CPU time is the run's, as its wall time is: system time well above
// nothing is the kernel's, mostly faulting in the pages the run's heap
// grows into, which a run right after another finds cheaper.
func printRunSpeed(w io.Writer, r *fabric.Run, res *fabric.Results, s runSpeed) {
	e := r.Cluster.Engine
	peak := "unknown"
	if _, rss, ok := processUsage(); ok {
		peak = fmt.Sprintf("%.1f MiB", float64(rss)/(1<<20))
	}
	cpu := "unknown"
	if s.cpuKnown {
		cpu = fmt.Sprintf("%.2f s user, %.2f s system", s.cpu.user.Seconds(), s.cpu.system.Seconds())
	}
	sec := s.wall.Seconds()
	fmt.Fprintf(w, "speed: %.2f s wall (build %.2f s) for %.1f us simulated: %.0f delivered data packets/s, %.3g evals/s; peak RSS %s; CPU %s\n",
		sec, s.build.Seconds(), res.SimTimeNS/1e3, float64(res.DataPackets)/sec, float64(e.Evals())/sec, peak, cpu)
}

// writeHeapProfile writes the live heap, after a collection, as a pprof
// profile to path.
func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	runtime.GC()
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
