package explore

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

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
	file     string
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

// LoadSweep reads and checks a sweep file. Unknown keys are errors with
// their line; so are unknown evaluators, parameters and metrics.
func LoadSweep(path string) (*Sweep, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s, err := ParseSweep(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	s.file = path
	return s, nil
}

// ParseSweep decodes and checks a sweep file's text.
func ParseSweep(data []byte) (*Sweep, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	s := &Sweep{}
	if err := dec.Decode(s); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("empty sweep file")
		}
		return nil, err
	}
	var second yaml.Node
	switch err := dec.Decode(&second); {
	case err == nil:
		return nil, fmt.Errorf("line %d: a second YAML document: a sweep file holds one sweep (write each in a file of its own)", max(second.Line, 1))
	case !errors.Is(err, io.EOF):
		return nil, err
	}
	if err := s.decodeBase(); err != nil {
		return nil, err
	}
	return s, s.check()
}

// decodeBase reads Base as ordered name: value pairs.
func (s *Sweep) decodeBase() error {
	n := &s.Base
	if n.Kind == 0 {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: base: want a mapping of parameter: value", n.Line)
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if v.Kind != yaml.ScalarNode {
			return fmt.Errorf("line %d: base: %s: want a single value", v.Line, k.Value)
		}
		s.base = append(s.base, Assignment{Name: k.Value, Value: v.Value})
		s.baseLine = append(s.baseLine, k.Line)
	}
	return nil
}

// check validates the sweep against its evaluator.
func (s *Sweep) check() error {
	ev, err := NewEvaluator(s.Evaluator)
	if err != nil {
		return err
	}
	switch s.Design.Kind {
	case "grid":
	case "random", "lhs":
		if s.Design.Samples < 1 {
			return fmt.Errorf("design: %s needs samples >= 1", s.Design.Kind)
		}
	default:
		return fmt.Errorf("design: kind %q: want grid, random or lhs", s.Design.Kind)
	}
	if len(s.Parameters) == 0 {
		return fmt.Errorf("parameters: none to sweep")
	}
	seen := map[string]bool{}
	for _, p := range s.Parameters {
		if seen[p.Name] {
			return fmt.Errorf("parameters: %q twice", p.Name)
		}
		seen[p.Name] = true
		if err := p.check(s.Design.Kind); err != nil {
			return fmt.Errorf("parameters: %s: %w", p.Name, err)
		}
	}
	known := map[string]bool{}
	for _, m := range ev.Metrics() {
		known[m.Name] = true
	}
	if len(s.Metrics) == 0 {
		return fmt.Errorf("metrics: none to collect (%s has %s)", s.Evaluator, metricNames(ev))
	}
	for _, m := range s.Metrics {
		if !known[m] {
			return fmt.Errorf("metrics: %s has no metric %q (it has %s)", s.Evaluator, m, metricNames(ev))
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
		return fmt.Errorf("design: more than %d points", MaxPoints)
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
			// Base values are checked with the points, since one may
			// need another (a fat tree's kind and its k); a value wrong
			// on its own is reported at its line.
			for i, a := range s.base {
				if err := ev.Check([]Assignment{a}); err != nil {
					return fmt.Errorf("line %d: base: %w", s.baseLine[i], err)
				}
			}
			return fmt.Errorf("point %s: %w", p.ID, err)
		}
	}
	return nil
}

// checkReports checks that Pareto and Plots name known metrics and
// parameters.
func (s *Sweep) checkReports() error {
	if p := s.Pareto; p != nil {
		for _, m := range []string{p.X, p.Y} {
			if !s.hasMetric(m) {
				return fmt.Errorf("pareto: %q is not a collected metric", m)
			}
		}
		for _, g := range []string{p.XGoal, p.YGoal} {
			if g != "min" && g != "max" {
				return fmt.Errorf("pareto: goal %q: want min or max", g)
			}
		}
	}
	for i, p := range s.Plots {
		if !s.hasParam(p.X) {
			return fmt.Errorf("plots[%d]: x %q is not a swept parameter", i, p.X)
		}
		if !s.hasMetric(p.Y) {
			return fmt.Errorf("plots[%d]: y %q is not a collected metric", i, p.Y)
		}
		if p.Series != "" && !s.hasParam(p.Series) {
			return fmt.Errorf("plots[%d]: series %q is not a swept parameter", i, p.Series)
		}
		if p.File == "" {
			return fmt.Errorf("plots[%d]: no file", i)
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
