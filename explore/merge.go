package explore

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Results is a whole sweep's results, in design order.
type Results struct {
	Sweep      string   `json:"sweep"`
	Evaluator  string   `json:"evaluator"`
	Seed       uint64   `json:"seed"`
	Parameters []string `json:"parameters"`
	Metrics    []string `json:"metrics"`
	Points     []Result `json:"points"`
}

// Merge gathers the result files of every output directory given and
// checks that each point of the sweep is there exactly once and that no
// file belongs to another sweep. The error names every missing,
// duplicated and unknown point. A directory given twice, by any name, is
// read once.
func Merge(s *Sweep, dirs ...string) (*Results, error) {
	pts, err := s.Points()
	if err != nil {
		return nil, err
	}
	byID := map[string]Point{}
	for _, p := range pts {
		byID[p.ID] = p
	}
	found := map[string][]string{} // id -> files
	got := map[string]Result{}
	var problems []error
	for _, dir := range distinctDirs(dirs) {
		files, err := filepath.Glob(filepath.Join(pointsDir(dir), "*.json"))
		if err != nil {
			return nil, err
		}
		sort.Strings(files)
		for _, f := range files {
			if strings.HasPrefix(filepath.Base(f), ".") {
				continue
			}
			r, err := readResult(f)
			if err != nil {
				problems = append(problems, err)
				continue
			}
			p, ok := byID[r.ID]
			if !ok || filepath.Base(f) != r.ID+".json" {
				problems = append(problems, fmt.Errorf("%s: point %q is not a point of this sweep", f, r.ID))
				continue
			}
			if err := matches(r, p, s.Metrics); err != nil {
				problems = append(problems, fmt.Errorf("%s: %w", f, err))
				continue
			}
			found[r.ID] = append(found[r.ID], f)
			got[r.ID] = r
		}
	}
	res := &Results{Sweep: s.Name, Evaluator: s.Evaluator, Seed: s.Seed, Metrics: append([]string(nil), s.Metrics...)}
	for _, p := range s.Parameters {
		res.Parameters = append(res.Parameters, p.Name)
	}
	for _, p := range pts {
		switch fs := found[p.ID]; {
		case len(fs) == 0:
			problems = append(problems, fmt.Errorf("missing point %s (%s)", p.ID, describe(p.Params)))
		case len(fs) > 1:
			problems = append(problems, fmt.Errorf("duplicate point %s (%s) in %s", p.ID, describe(p.Params), strings.Join(fs, ", ")))
		default:
			res.Points = append(res.Points, got[p.ID])
		}
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("merge: %d of %d points merged: %w", len(res.Points), len(pts), errors.Join(problems...))
	}
	return res, nil
}

// matches checks a result file against its design point and the metrics.
func matches(r Result, p Point, metrics []string) error {
	if r.Seed != p.Seed || r.Index != p.Index || canonical(r.Params) != canonical(p.Params) {
		return fmt.Errorf("point %s does not match the sweep's point (index, seed or values differ)", r.ID)
	}
	if len(r.Metrics) != len(metrics) {
		return fmt.Errorf("point %s has %d metrics, the sweep collects %d", r.ID, len(r.Metrics), len(metrics))
	}
	for i, m := range metrics {
		if r.Metrics[i].Name != m {
			return fmt.Errorf("point %s: metric %d is %q, the sweep's is %q", r.ID, i, r.Metrics[i].Name, m)
		}
	}
	return nil
}

// FormatValue writes a metric value the shortest way that reads back
// exactly.
func FormatValue(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// WriteCSV writes one row per point: id, index, seed, the parameters, the
// metrics.
func (r *Results) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	hdr := append(append([]string{"id", "index", "seed"}, r.Parameters...), r.Metrics...)
	if err := cw.Write(hdr); err != nil {
		return err
	}
	for _, p := range r.Points {
		row := []string{p.ID, strconv.Itoa(p.Index), strconv.FormatUint(p.Seed, 10)}
		for _, a := range p.Params {
			row = append(row, a.Value)
		}
		for _, v := range p.Metrics {
			row = append(row, FormatValue(v.Value))
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteJSON writes the results as indented JSON.
func (r *Results) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteFiles writes the CSV and the JSON to the paths given, atomically.
func (r *Results) WriteFiles(csvPath, jsonPath string) error {
	for _, f := range []struct {
		path  string
		write func(io.Writer) error
	}{{csvPath, r.WriteCSV}, {jsonPath, r.WriteJSON}} {
		if err := writeAtomic(f.path, f.write); err != nil {
			return err
		}
	}
	return nil
}

// writeAtomic writes a file through a temporary file and a rename.
func writeAtomic(path string, write func(io.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		_ = os.Remove(f.Name())
	}
	return err
}
