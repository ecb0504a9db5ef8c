package explore

import (
	"io"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"
)

// WriteTable writes points as a table: id, the parameters, the metrics.
func WriteTable(w io.Writer, r *Results, pts []Result) error {
	t := tablewriter.NewTable(w, tablewriter.WithConfig(
		tablewriter.NewConfigBuilder().WithHeaderAutoFormat(tw.Off).Build()))
	hdr := []any{"id"}
	for _, p := range r.Parameters {
		hdr = append(hdr, p)
	}
	for _, m := range r.Metrics {
		hdr = append(hdr, m)
	}
	t.Header(hdr...)
	for _, p := range pts {
		row := []string{p.ID}
		for _, name := range r.Parameters {
			v, _ := p.Param(name)
			row = append(row, v)
		}
		for _, v := range p.Metrics {
			row = append(row, formatShort(v.Value))
		}
		if err := t.Append(row); err != nil {
			return err
		}
	}
	return t.Render()
}

// formatShort writes a value with at most six significant digits.
func formatShort(v float64) string {
	return FormatValue(roundSig(v, 6))
}
