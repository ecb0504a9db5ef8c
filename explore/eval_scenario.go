package explore

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fabricmodel/fabricmodel/fabric"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// scenarioEvaluator runs a fabric scenario (fabric.Run) with the point's
// values written into it. A parameter is any scenario key as a dotted path
// (switch.ecn.kmin_bytes, nic.cc, topology.leaves, workload.bytes,
// switch.pfc_classes) whose value is YAML ("[0, 3]" for a list); the
// parameter "scenario" names the file the values are written into, the
// embedded default scenario when absent or empty. The edited scenario is
// decoded as strictly as a scenario file. Every point keeps the scenario's seed, so
// all points see the same traffic and differ only by the swept values;
// sweep "seed" as a parameter to average over traffic draws. A relative
// scenario file name is read from dir (a sweep file's directory; "": the
// working directory), and so is a relative trace file over the default
// scenario (a scenario file's trace is read from beside it).
type scenarioEvaluator struct {
	dir string
}

// InDir returns the evaluator that reads a relative scenario file name
// from dir.
func (e scenarioEvaluator) InDir(dir string) Evaluator { return scenarioEvaluator{dir: dir} }

// scenarioFileParam names the scenario file a point starts from.
const scenarioFileParam = "scenario"

// scenarioStep is the simulated time between cancellation checks.
const scenarioStep = 10 * rtlmodel.Microsecond

// scenarioLimit stops a point whose scenario sets no max_time_us.
const scenarioLimit = 100 * rtlmodel.Millisecond

// Params lists the file parameter and examples of key paths.
func (scenarioEvaluator) Params() [][3]string {
	return [][3]string{
		{scenarioFileParam, "path", "scenario file the other values are written into, relative to the sweep file (absent or empty: the embedded default scenario)"},
		{"KEY.KEY...", "", "any scenario key as a dotted path, value in YAML; e.g. the ones below"},
		{"switch.lb", "", "perflow, spray, roundrobin, random or dlb"},
		{"switch.buffer_bytes", "B", "shared buffer per switch"},
		{"switch.alpha", "", "dynamic threshold of the lossy queues, a power of two from 1/128 to 256"},
		{"switch.queue_reserve_bytes", "B", "buffer reserved for each lossy queue"},
		{"switch.ecn.kmin_bytes", "B", "ECN marking threshold"},
		{"switch.trimming", "", "true or false"},
		{"nic.cc", "", "congestion control algorithm"},
		{"nic.paths", "", "fixed, spray or pathaware"},
		{"topology.spines", "", "spine switches of a leaf-spine"},
		{"workload.bytes", "B", "bytes per flow"},
		{"max_time_us", "us", "stop the run at this simulated time"},
	}
}

// Metrics lists what a fabric run reports (fabric.Results).
func (scenarioEvaluator) Metrics() []Metric {
	return []Metric{
		{"completed_fraction", "", "flows completed over flows"},
		{"jct_us", "us", "longest job completion time"},
		{"fct_p50_us", "us", "median flow completion time"},
		{"fct_p99_us", "us", "99th percentile flow completion time"},
		{"fct_max_us", "us", "longest flow completion time"},
		{"goodput_gbps", "Gb/s", "all flows' bytes over first doorbell to last completion"},
		{"link_util_mean", "", "mean link utilisation"},
		{"link_util_max", "", "busiest link's utilisation"},
		{"max_queue_bytes", "B", "most buffer any switch held"},
		{"pfc_frames", "", "PFC pause frames sent"},
		{"pfc_paused_us", "us", "time PFC paused transmitters, summed over switch egress classes and NICs"},
		{"ecn_marks", "", "packets ECN-marked"},
		{"trims", "", "packets trimmed to their headers"},
		{"drops", "", "packets dropped, switch_drops + nic_drops"},
		{"switch_drops", "", "packets the switches dropped (admission, no route, bad FCS, parse error)"},
		{"nic_drops", "", "packets receiving NICs discarded (bad FCS or ICRC, out of window, out of order, beyond the reorder buffer, trimmed before their PSN)"},
		{"retransmits", "", "packets retransmitted"},
		{"duplicates_received", "", "data packets a receiver got a second time (late originals, go-back-N rewinds)"},
	}
}

// file returns the scenario file params name, read from e.dir when
// relative; ok false when they name none (no scenario value, or an empty
// one: the embedded default scenario).
func (e scenarioEvaluator) file(params []Assignment) (path string, ok bool) {
	file, ok := lookup(params, scenarioFileParam)
	if file == "" {
		return "", false
	}
	if !filepath.IsAbs(file) && e.dir != "" {
		file = filepath.Join(e.dir, file)
	}
	return file, ok
}

// source reads the base scenario params name: its name in errors, its
// text, and its file ("" for the embedded default scenario).
func (e scenarioEvaluator) source(params []Assignment) (name string, data []byte, file string, err error) {
	file, ok := e.file(params)
	if !ok {
		return "default_scenario.yaml", fabric.DefaultScenarioYAML(), "", nil
	}
	data, err = os.ReadFile(file)
	if err != nil {
		given, _ := lookup(params, scenarioFileParam)
		if e.dir != "" && !filepath.IsAbs(given) && errors.Is(err, fs.ErrNotExist) {
			err = fmt.Errorf("%w (a relative scenario is read from the sweep file's directory, %s)", err, e.dir)
		}
		return "", nil, "", &paramError{scenarioFileParam, err}
	}
	return file, data, file, nil
}

// settings are params but the scenario file's as the scenario's
// settings, in their order; a key given twice (a base value swept too)
// is set once, to its last value, as the point takes it.
func settings(params []Assignment) []fabric.Setting {
	var out []fabric.Setting
	for _, a := range params {
		if a.Name == scenarioFileParam {
			continue
		}
		st := fabric.Setting{Key: a.Name, Value: a.Value}
		if i := slices.IndexFunc(out, func(o fabric.Setting) bool { return o.Key == a.Name }); i >= 0 {
			out = slices.Delete(out, i, i+1)
		}
		out = append(out, st)
	}
	return out
}

// scenario writes params into the base scenario and decodes the result
// (fabric.ParseScenarioWith).
func (e scenarioEvaluator) scenario(params []Assignment) (*fabric.Scenario, error) {
	name, data, file, err := e.source(params)
	if err != nil {
		return nil, err
	}
	s, err := fabric.ParseScenarioWith(name, data, settings(params))
	if err != nil {
		return nil, e.blame(params, err)
	}
	s.Dir = e.traceDir(file)
	return s, nil
}

// traceDir is where a relative trace file (workload.file) of the base
// scenario file is read from: that file's directory, as fabricmodel run
// reads it, or, over the embedded default scenario (file ""), the sweep
// file's directory, as the sweep's other file names are.
func (e scenarioEvaluator) traceDir(file string) string {
	if file != "" {
		return filepath.Dir(file)
	}
	return e.dir
}

// Check builds the scenario the values describe without running it.
func (e scenarioEvaluator) Check(params []Assignment) error {
	_, err := e.scenario(params)
	return err
}

// Evaluate runs the scenario until every flow completes, max_time_us, or
// 100 ms of simulated time, whichever is first.
func (e scenarioEvaluator) Evaluate(ctx context.Context, params []Assignment, _ uint64) (map[string]float64, error) {
	s, err := e.scenario(params)
	if err != nil {
		return nil, err
	}
	r, err := fabric.NewRun(s)
	if err != nil {
		return nil, e.blame(params, err)
	}
	limit := scenarioLimit
	if s.MaxTimeUS > 0 {
		limit = rtlmodel.Time(s.MaxTimeUS) * rtlmodel.Microsecond
	}
	if err := r.Complete(ctx, scenarioStep, limit, nil); err != nil {
		return nil, err
	}
	res := r.Results()
	jct := 0.0
	if len(res.JobTimesNS) > 0 {
		jct = slices.Max(res.JobTimesNS)
	}
	completed := 0.0
	if res.Flows > 0 {
		completed = float64(res.Completed) / float64(res.Flows)
	}
	return map[string]float64{
		"completed_fraction":  completed,
		"jct_us":              jct / 1e3,
		"fct_p50_us":          res.FCTP50NS / 1e3,
		"fct_p99_us":          res.FCTP99NS / 1e3,
		"fct_max_us":          res.FCTMaxNS / 1e3,
		"goodput_gbps":        res.GoodputGbps,
		"link_util_mean":      res.LinkUtilMean,
		"link_util_max":       res.LinkUtilMax,
		"max_queue_bytes":     float64(res.MaxQueueBytes),
		"pfc_frames":          float64(res.PFCFrames),
		"pfc_paused_us":       res.PFCPausedNS / 1e3,
		"ecn_marks":           float64(res.ECNMarks),
		"trims":               float64(res.Trims),
		"drops":               float64(res.Drops),
		"switch_drops":        float64(res.SwitchDrops),
		"nic_drops":           float64(res.NICDrops),
		"retransmits":         float64(res.Retransmits),
		"duplicates_received": float64(res.DuplicatesReceived),
	}, nil
}

// blame marks err, found reading or building the scenario params
// describe, as about the value at fault: the setting that could not be
// written (fabric.SettingError), or the last of params to set the
// scenario key err names (fabric.ErrorKey) or a mapping holding it. An
// error about a key of the base scenario file already names the file's
// line (ParseScenarioWith), and one naming no key stays as it is.
func (e scenarioEvaluator) blame(params []Assignment, err error) error {
	var se *fabric.SettingError
	if errors.As(err, &se) {
		return &paramError{se.Setting.Key, err}
	}
	key, ok := fabric.ErrorKey(err)
	if !ok {
		return err
	}
	for i := len(params) - 1; i >= 0; i-- {
		n := params[i].Name
		if n != scenarioFileParam && (n == key || strings.HasPrefix(key, n+".")) {
			return &paramError{n, err}
		}
	}
	return err
}
