package explore

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Value is one named metric value.
type Value struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
}

// Result is one evaluated point: what its result file holds.
type Result struct {
	Point
	// Metrics are the sweep's metrics, in the sweep's order.
	Metrics []Value `json:"metrics"`
}

// Metric returns the value of metric name.
func (r Result) Metric(name string) (float64, bool) {
	for _, v := range r.Metrics {
		if v.Name == name {
			return v.Value, true
		}
	}
	return 0, false
}

// Param returns the point's value of parameter name.
func (r Result) Param(name string) (string, bool) { return lookup(r.Params, name) }

// pointsDir is where an output directory keeps its result files.
func pointsDir(dir string) string { return filepath.Join(dir, "points") }

// resultPath is the result file of point id.
func resultPath(dir, id string) string { return filepath.Join(pointsDir(dir), id+".json") }

// writeResult writes r to its result file atomically: a temporary file in
// the same directory, synced, then renamed over the name, so a reader (or
// a rerun) sees either no file or a whole one.
func writeResult(dir string, r Result) error {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	data = append(data, '\n')
	f, err := os.CreateTemp(pointsDir(dir), "."+r.ID+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	if _, err = f.Write(data); err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, resultPath(dir, r.ID))
	}
	if err != nil {
		_ = os.Remove(tmp)
	}
	return err
}

// readResult reads a result file.
func readResult(path string) (Result, error) {
	var r Result
	data, err := os.ReadFile(path)
	if err != nil {
		return r, err
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return r, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}

// done reports whether point p has a whole result file in dir with every
// metric the sweep collects.
func done(dir string, p Point, metrics []string) bool {
	r, err := readResult(resultPath(dir, p.ID))
	if err != nil || r.ID != p.ID || len(r.Metrics) != len(metrics) {
		return false
	}
	for i, m := range metrics {
		if r.Metrics[i].Name != m {
			return false
		}
	}
	return true
}
