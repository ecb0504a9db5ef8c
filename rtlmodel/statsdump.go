package rtlmodel

import (
	"encoding/csv"
	"encoding/json"
	"io"
	"math"
	"strconv"
)

// StatsSchemaVersion is the version of the JSON and CSV stats layout.
const StatsSchemaVersion = 1

// MetricRecord is one metric flattened for JSON and CSV.
type MetricRecord struct {
	Name  string   `json:"name"`
	Kind  string   `json:"kind"`
	Unit  string   `json:"unit"`
	Value *float64 `json:"value,omitempty"` // counter, gauge
	Max   *float64 `json:"max,omitempty"`   // gauge, histogram
	Count *uint64  `json:"count,omitempty"` // histogram
	Min   *float64 `json:"min,omitempty"`
	Mean  *float64 `json:"mean,omitempty"`
	P50   *float64 `json:"p50,omitempty"`
	P90   *float64 `json:"p90,omitempty"`
	P99   *float64 `json:"p99,omitempty"`
	P999  *float64 `json:"p999,omitempty"`
	Doc   string   `json:"doc,omitempty"`
}

func fp(v float64) *float64 { return &v }

// Records flattens every metric, sorted by name.
func (r *Registry) Records() []MetricRecord {
	var out []MetricRecord
	for _, m := range r.All() {
		rec := MetricRecord{Name: m.Name(), Kind: m.Kind(), Unit: m.Unit(), Doc: m.Doc()}
		switch x := m.(type) {
		case *Counter:
			rec.Value = fp(float64(x.Value()))
		case *Gauge:
			rec.Value, rec.Max = fp(float64(x.Value())), fp(float64(x.Max()))
		case *Histogram:
			n := x.Count()
			rec.Count = &n
			if n > 0 {
				rec.Min, rec.Max = fp(float64(x.Min())), fp(float64(x.Max()))
				rec.Mean = fp(x.Mean())
				rec.P50, rec.P90 = fp(float64(x.Percentile(0.5))), fp(float64(x.Percentile(0.9)))
				rec.P99, rec.P999 = fp(float64(x.Percentile(0.99))), fp(float64(x.Percentile(0.999)))
			}
		}
		out = append(out, rec)
	}
	return out
}

// WriteJSON writes all metrics as one JSON document.
func (r *Registry) WriteJSON(w io.Writer) error {
	doc := struct {
		Schema  string         `json:"schema"`
		Version int            `json:"version"`
		Metrics []MetricRecord `json:"metrics"`
	}{"fabricmodel.stats", StatsSchemaVersion, r.Records()}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// WriteCSV writes all metrics as CSV with a header row.
func (r *Registry) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"name", "kind", "unit", "value", "count", "min", "max", "mean", "p50", "p90", "p99", "p999"})
	str := func(p *float64) string {
		if p == nil || math.IsNaN(*p) {
			return ""
		}
		return strconv.FormatFloat(*p, 'g', -1, 64)
	}
	for _, rec := range r.Records() {
		count := ""
		if rec.Count != nil {
			count = strconv.FormatUint(*rec.Count, 10)
		}
		_ = cw.Write([]string{rec.Name, rec.Kind, rec.Unit, str(rec.Value), count, str(rec.Min),
			str(rec.Max), str(rec.Mean), str(rec.P50), str(rec.P90), str(rec.P99), str(rec.P999)})
	}
	cw.Flush()
	return cw.Error()
}
