package explore

import (
	"context"
)

// incastEvaluator runs RunIncast with the point's values set on
// DefaultIncastConfig.
type incastEvaluator struct{}

// Params lists IncastParams.
func (incastEvaluator) Params() [][3]string { return IncastParams() }

// Metrics lists what an incast run measures.
func (incastEvaluator) Metrics() []Metric {
	return []Metric{
		{"throughput_gbps", "Gb/s", "payload into the receiver, first doorbell to last completion"},
		{"peak_buffer_bytes", "B", "most switch buffer held at once"},
		{"fct_p50_us", "us", "median flow completion time"},
		{"fct_p99_us", "us", "99th percentile flow completion time"},
		{"fct_max_us", "us", "longest flow completion time"},
		{"ecn_marks", "", "packets ECN-marked by the switch"},
		{"cnps", "", "CNPs sent by the receiver"},
		{"drops", "", "packets dropped by the switch"},
		{"retransmits", "", "packets retransmitted by the senders"},
	}
}

func (incastEvaluator) config(params []Assignment) (IncastConfig, error) {
	c := DefaultIncastConfig()
	for _, a := range params {
		if err := c.Set(a.Name, a.Value); err != nil {
			return c, &paramError{a.Name, err}
		}
	}
	return c, nil
}

// Check sets the values on a default IncastConfig.
func (e incastEvaluator) Check(params []Assignment) error {
	_, err := e.config(params)
	return err
}

// Evaluate simulates the incast on the cycle model.
func (e incastEvaluator) Evaluate(ctx context.Context, params []Assignment, seed uint64) (map[string]float64, error) {
	c, err := e.config(params)
	if err != nil {
		return nil, err
	}
	r, err := RunIncast(ctx, c, seed)
	if err != nil {
		return nil, err
	}
	return map[string]float64{
		"throughput_gbps":   r.ThroughputGbps,
		"peak_buffer_bytes": float64(r.PeakBufferBytes),
		"fct_p50_us":        r.Percentile(50),
		"fct_p99_us":        r.Percentile(99),
		"fct_max_us":        r.Percentile(100),
		"ecn_marks":         float64(r.Marks),
		"cnps":              float64(r.CNPs),
		"drops":             float64(r.Drops),
		"retransmits":       float64(r.Retransmits),
	}, nil
}
