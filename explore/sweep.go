package explore

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fabricmodel/fabricmodel/internal/yamlfile"
	"go.yaml.in/yaml/v3"
)

// Sweep is a sweep file: what to evaluate, over which points, and what to
// collect and report.
type Sweep struct {
	// Name names the sweep in reports.
	Name string `yaml:"name"`
	// Evaluator is the registered evaluator: "budget", "incast", ...
	Evaluator string `yaml:"evaluator"`
	// Seed is the sweep seed; each point's seed derives from it and the
	// point's values.
	Seed uint64 `yaml:"seed"`
	// Base holds fixed parameter values applied to every point before its
	// own, as name: value.
	Base yaml.Node `yaml:"base"`
	// Design expands Parameters into points.
	Design Design `yaml:"design"`
	// Parameters are the swept parameters, in order.
	Parameters []Parameter `yaml:"parameters"`
	// Metrics are the evaluator's metrics to keep, in order.
	Metrics []string `yaml:"metrics"`
	// Pareto, when set, is the front to report.
	Pareto *ParetoSpec `yaml:"pareto"`
	// Plots are the PNG plots to draw.
	Plots []PlotSpec `yaml:"plots"`

	base     []Assignment // Base decoded, in file order
	baseLine []int        // the line of each base value
	root     *yaml.Node   // the file's YAML tree, for the lines of errors
	dir      string       // where relative file names are read from
	path     string       // the file's name in errors ("": text with no file)
}

// Design is how parameters become points.
type Design struct {
	// Kind is grid (every combination), random (independent uniform draws)
	// or lhs (Latin hypercube: each parameter's range cut into Samples
	// strata, each stratum used exactly once).
	Kind string `yaml:"kind"`
	// Samples is the number of points of a random or lhs design.
	Samples int `yaml:"samples"`
}

// Parameter is one swept parameter: either a list of values, or a range
// (min, max) that a grid cuts into Steps values and random and lhs draw
// from.
type Parameter struct {
	// Name is the evaluator's parameter name.
	Name string `yaml:"name"`
	// Values lists the values to take, as the evaluator reads them.
	Values []string `yaml:"values"`
	// Min and Max bound a range (both inclusive).
	Min *float64 `yaml:"min"`
	Max *float64 `yaml:"max"`
	// Steps is how many values a grid takes from the range, ends included.
	Steps int `yaml:"steps"`
	// Scale is linear (default) or log.
	Scale string `yaml:"scale"`
	// Integer rounds values to whole numbers.
	Integer bool `yaml:"integer"`
}

// ParetoSpec names two metrics and whether each is minimised or maximised.
type ParetoSpec struct {
	// X and Y are collected metrics; XGoal and YGoal are min or max.
	X     string `yaml:"x"`
	XGoal string `yaml:"x_goal"`
	Y     string `yaml:"y"`
	YGoal string `yaml:"y_goal"`
}

// PlotSpec is a PNG of metric Y against swept parameter X, one line per
// value of Series (optional), written to File.
type PlotSpec struct {
	// X is a swept parameter, Y a collected metric, Series an optional
	// second parameter, File the output (PNG, SVG or PDF by extension)
	// and LogX a logarithmic x axis.
	X      string `yaml:"x"`
	Y      string `yaml:"y"`
	Series string `yaml:"series"`
	File   string `yaml:"file"`
	LogX   bool   `yaml:"log_x"`
}

// LoadSweep reads and checks a sweep file. Its errors name the file and,
// where a line is knowable, the line: unknown keys, evaluators,
// parameters and metrics. A relative file name among its values (the
// scenario evaluator's scenario, or a trace over the default scenario) is
// read from the sweep file's directory.
func LoadSweep(path string) (*Sweep, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s, err := parseSweep(data, filepath.Dir(path))
	if err != nil {
		return nil, yamlfile.Locate(path, err)
	}
	s.path = path
	return s, nil
}

// ParseSweep decodes and checks a sweep file's text; its errors give
// lines ("line 4: ..."), and relative file names among its values are read
// from the working directory.
func ParseSweep(data []byte) (*Sweep, error) {
	s, err := parseSweep(data, "")
	return s, yamlfile.Locate("", err)
}

// parseSweep decodes and checks a sweep whose relative file names are in
// dir ("": the working directory).
func parseSweep(data []byte, dir string) (*Sweep, error) {
	s := &Sweep{dir: dir}
	if err := decodeSweep(s, data); err != nil {
		return nil, err
	}
	if err := s.decodeBase(); err != nil {
		return nil, err
	}
	if err := s.check(); err != nil {
		return nil, err
	}
	return s, nil
}

// decodeBase reads Base as ordered name: value pairs.
func (s *Sweep) decodeBase() error {
	n := &s.Base
	if n.Kind == 0 {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		return yamlfile.AtLine(n.Line, fmt.Errorf("base: want a mapping of parameter: value"))
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if v.Kind != yaml.ScalarNode {
			return yamlfile.AtLine(v.Line, fmt.Errorf("base: %s: want a single value", k.Value))
		}
		s.base = append(s.base, Assignment{Name: k.Value, Value: v.Value})
		s.baseLine = append(s.baseLine, k.Line)
	}
	return nil
}

// evaluator returns the sweep's evaluator, reading relative file names
// from the sweep file's directory.
func (s *Sweep) evaluator() (Evaluator, error) {
	ev, err := NewEvaluator(s.Evaluator)
	if err != nil {
		return nil, s.keyed("evaluator", err)
	}
	if fe, ok := ev.(FileEvaluator); ok && s.dir != "" {
		ev = fe.InDir(s.dir)
	}
	return ev, nil
}

// check validates the sweep against its evaluator, each error at the line
// of the key it is about.
func (s *Sweep) check() error {
	ev, err := s.evaluator()
	if err != nil {
		return err
	}
	switch s.Design.Kind {
	case "grid":
	case "random", "lhs":
		if s.Design.Samples < 1 {
			return s.keyed("design.samples", fmt.Errorf("design: %s needs samples >= 1", s.Design.Kind))
		}
	default:
		return s.keyed("design.kind", fmt.Errorf("design: kind %q: want grid, random or lhs", s.Design.Kind))
	}
	if len(s.Parameters) == 0 {
		return s.keyed("parameters", fmt.Errorf("parameters: none to sweep"))
	}
	seen := map[string]bool{}
	for i, p := range s.Parameters {
		at := fmt.Sprintf("parameters.%d", i)
		if seen[p.Name] {
			return s.keyed(at+".name", fmt.Errorf("parameters: %q twice", p.Name))
		}
		seen[p.Name] = true
		if err := p.check(s.Design.Kind); err != nil {
			return s.keyed(at, fmt.Errorf("parameters: %s: %w", p.Name, err))
		}
	}
	known := map[string]bool{}
	for _, m := range ev.Metrics() {
		known[m.Name] = true
	}
	if len(s.Metrics) == 0 {
		return s.keyed("metrics", fmt.Errorf("metrics: none to collect (%s has %s)", s.Evaluator, metricNames(ev)))
	}
	for i, m := range s.Metrics {
		if !known[m] {
			return s.keyed(fmt.Sprintf("metrics.%d", i), fmt.Errorf("metrics: %s has no metric %q (it has %s)", s.Evaluator, m, metricNames(ev)))
		}
	}
	n := 1
	for _, p := range s.Parameters {
		k := len(p.Values)
		if k == 0 {
			k = p.Steps
		}
		n = min(n*max(k, 1), MaxPoints+1)
	}
	if s.Design.Kind != "grid" {
		n = s.Design.Samples
	}
	if n > MaxPoints {
		return s.keyed("design", fmt.Errorf("design: more than %d points", MaxPoints))
	}
	if err := s.checkReports(); err != nil {
		return err
	}
	pts, err := s.Points()
	if err != nil {
		return err
	}
	for _, p := range pts {
		if err := ev.Check(append(slicesClone(s.base), p.Params...)); err != nil {
			return s.pointError(ev, p, err)
		}
	}
	return nil
}

// evalError reports err, point p failing when evaluated, with the sweep
// file's name and, when the evaluator names the parameter at fault (a
// paramError), the line of the value that set it: the point's own value
// of a swept parameter (the entry of its values list, or the parameter
// for a range), or else a base value. The point's values follow
// its id, as the line alone does not say which of them it took.
func (s *Sweep) evalError(p Point, err error) error {
	err = fmt.Errorf("point %s (%s): %w", p.ID, describe(p.Params), err)
	var pe *paramError
	if !errors.As(err, &pe) {
		return yamlfile.Locate(s.path, err)
	}
	line := 0
	for i, b := range s.base {
		if b.Name == pe.name {
			line = s.baseLine[i]
		}
	}
	for i, q := range s.Parameters {
		if q.Name != pe.name {
			continue
		}
		at := fmt.Sprintf("parameters.%d", i)
		if v, ok := lookup(p.Params, q.Name); ok {
			if j := slices.Index(q.Values, v); j >= 0 {
				at += fmt.Sprintf(".values.%d", j)
			}
		}
		line = yamlfile.KeyLine(s.root, at)
	}
	return yamlfile.Locate(s.path, yamlfile.AtLine(line, err))
}

// pointError reports err, point p failing its check, at the line of the
// value it is about: the one the evaluator names (a paramError), or else
// the one whose leaving out alone makes the point pass. Base values are
// checked with the points, since one may need another (a fat tree's kind
// and its k, a scenario file and a key of it), so the value may be a base
// value ("base: ...") or a swept one ("point ID: ..." at the parameter's
// line). With no single value to blame the error is the point's.
func (s *Sweep) pointError(ev Evaluator, p Point, err error) error {
	values := append(slicesClone(s.base), p.Params...)
	culprit := -1
	var pe *paramError
	if errors.As(err, &pe) {
		for i, a := range values {
			if a.Name == pe.name {
				culprit = i
			}
		}
	}
	for i := 0; culprit < 0 && i < len(values); i++ {
		rest := append(slicesClone(values[:i]), values[i+1:]...)
		if ev.Check(rest) == nil {
			culprit = i
			for j := i + 1; j < len(values); j++ {
				if ev.Check(append(slicesClone(values[:j]), values[j+1:]...)) == nil {
					culprit = -1 // more than one: no single line to blame
					break
				}
			}
			break
		}
	}
	switch {
	case culprit < 0:
		return fmt.Errorf("point %s: %w", p.ID, err)
	case culprit < len(s.base):
		return yamlfile.AtLine(s.baseLine[culprit], fmt.Errorf("base: %w", err))
	}
	return s.keyed(fmt.Sprintf("parameters.%d", culprit-len(s.base)), fmt.Errorf("point %s: %w", p.ID, err))
}

// checkReports checks that Pareto and Plots name known metrics and
// parameters.
func (s *Sweep) checkReports() error {
	if p := s.Pareto; p != nil {
		for _, m := range []struct{ key, name string }{{"x", p.X}, {"y", p.Y}} {
			if !s.hasMetric(m.name) {
				return s.keyed("pareto."+m.key, fmt.Errorf("pareto: %s %q is not a collected metric", m.key, m.name))
			}
		}
		for _, g := range []struct{ key, goal string }{{"x_goal", p.XGoal}, {"y_goal", p.YGoal}} {
			if g.goal != "min" && g.goal != "max" {
				return s.keyed("pareto."+g.key, fmt.Errorf("pareto: %s %q: want min or max", g.key, g.goal))
			}
		}
	}
	for i, p := range s.Plots {
		at := fmt.Sprintf("plots.%d", i)
		if !s.hasParam(p.X) {
			return s.keyed(at+".x", fmt.Errorf("%s: x %q is not a swept parameter", at, p.X))
		}
		if !s.hasMetric(p.Y) {
			return s.keyed(at+".y", fmt.Errorf("%s: y %q is not a collected metric", at, p.Y))
		}
		if p.Series != "" && !s.hasParam(p.Series) {
			return s.keyed(at+".series", fmt.Errorf("%s: series %q is not a swept parameter", at, p.Series))
		}
		if p.File == "" {
			return s.keyed(at, fmt.Errorf("%s: no file", at))
		}
	}
	return nil
}

func (s *Sweep) hasMetric(m string) bool {
	for _, x := range s.Metrics {
		if x == m {
			return true
		}
	}
	return false
}

func (s *Sweep) hasParam(n string) bool {
	for _, p := range s.Parameters {
		if p.Name == n {
			return true
		}
	}
	return false
}

// BaseParams returns the base assignments in file order.
func (s *Sweep) BaseParams() []Assignment { return slicesClone(s.base) }

func metricNames(ev Evaluator) string {
	var n []string
	for _, m := range ev.Metrics() {
		n = append(n, m.Name)
	}
	return strings.Join(n, ", ")
}

func slicesClone(a []Assignment) []Assignment { return append([]Assignment(nil), a...) }
