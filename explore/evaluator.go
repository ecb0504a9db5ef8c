package explore

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Metric describes one value an evaluator reports.
type Metric struct {
	// Name is what sweep files call it; Unit and Doc describe it.
	Name, Unit, Doc string
}

// Evaluator turns a point's parameter values into metrics. Each call to
// Evaluate is an independent simulation: evaluators keep no state between
// points, so any number may run at once.
type Evaluator interface {
	// Params lists the parameters Check and Evaluate accept: name, unit,
	// meaning.
	Params() [][3]string
	// Metrics lists every metric Evaluate reports.
	Metrics() []Metric
	// Check applies the values without evaluating: an unknown name or a
	// bad value is an error.
	Check(params []Assignment) error
	// Evaluate runs one point with its seed and returns every metric.
	Evaluate(ctx context.Context, params []Assignment, seed uint64) (map[string]float64, error)
}

// FileEvaluator is an Evaluator some of whose parameter values name
// files. InDir returns the evaluator that reads a relative name from dir:
// a sweep file's names are relative to the sweep file's directory.
type FileEvaluator interface {
	Evaluator
	InDir(dir string) Evaluator
}

// InputEvaluator is an Evaluator whose points read inputs besides their
// values: files a value names, or data built into the program. A point's
// id and seed hash what Inputs says of them with the point's values, so
// that a point whose inputs changed is evaluated again rather than found
// done. Inputs describes each input by its content (a digest of its
// bytes), not its name, and one it cannot read by that fact, which Check
// then reports as an error.
type InputEvaluator interface {
	Evaluator
	Inputs(params []Assignment) string
}

// paramError is an evaluator's error about the value of one parameter,
// so that a sweep can give the line that set it. Its text is the wrapped
// error's.
type paramError struct {
	name string
	err  error
}

func (e *paramError) Error() string { return e.err.Error() }
func (e *paramError) Unwrap() error { return e.err }

var (
	registryMu sync.Mutex
	registry   = map[string]func() Evaluator{}
)

// Register makes an evaluator available to sweep files by name; it panics
// if the name is taken (registration is program setup, not user input).
func Register(name string, mk func() Evaluator) {
	registryMu.Lock()
	defer registryMu.Unlock()
	if _, ok := registry[name]; ok {
		panic(fmt.Sprintf("explore: evaluator %q registered twice", name))
	}
	registry[name] = mk
}

// Evaluators lists the registered evaluators' names, sorted.
func Evaluators() []string {
	registryMu.Lock()
	defer registryMu.Unlock()
	var n []string
	for k := range registry {
		n = append(n, k)
	}
	sort.Strings(n)
	return n
}

// NewEvaluator returns the evaluator registered as name.
func NewEvaluator(name string) (Evaluator, error) {
	registryMu.Lock()
	mk, ok := registry[name]
	registryMu.Unlock()
	if !ok {
		return nil, fmt.Errorf("evaluator %q: want one of %s", name, strings.Join(Evaluators(), ", "))
	}
	return mk(), nil
}

func init() {
	Register("budget", func() Evaluator { return budgetEvaluator{} })
	Register("incast", func() Evaluator { return incastEvaluator{} })
	Register("scenario", func() Evaluator { return scenarioEvaluator{} })
}
