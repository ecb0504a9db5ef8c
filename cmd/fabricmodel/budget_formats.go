package main

import (
	"encoding/csv"
	"encoding/json"
	"io"
	"regexp"

	"github.com/fabricmodel/fabricmodel/fabric"
)

// writeBudgetCSV writes the report as one CSV table: a header of
// "section" and every column of every section, each name once in the
// order the sections first give it, then a row per row of each section,
// led by the section's title, with its cells under its own columns and
// the columns it has not left empty.
func writeBudgetCSV(w io.Writer, rep *fabric.BudgetReport) error {
	header := []string{"section"}
	at := map[string]int{}
	for _, s := range rep.Sections {
		for _, c := range s.Columns {
			if _, ok := at[c]; !ok {
				at[c] = len(header)
				header = append(header, c)
			}
		}
	}
	cw := csv.NewWriter(w)
	_ = cw.Write(header)
	for _, s := range rep.Sections {
		for _, r := range s.Rows {
			row := make([]string, len(header))
			row[0] = s.Title
			for i, cell := range r {
				row[at[s.Columns[i]]] = cell
			}
			_ = cw.Write(row)
		}
	}
	cw.Flush()
	return cw.Error()
}

// jsonNumber matches a cell that is a number as JSON writes one.
var jsonNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// budgetSectionJSON is a section as --format json writes it: its rows'
// cells that are numbers are JSON numbers, written with the digits the
// other formats print ("2.720" is 2.720), and the rest strings.
type budgetSectionJSON struct {
	fabric.BudgetSection
	Rows [][]any `json:"rows"`
}

// writeBudgetJSON writes the report as indented JSON.
func writeBudgetJSON(w io.Writer, rep *fabric.BudgetReport) error {
	out := struct {
		Sections []budgetSectionJSON `json:"sections"`
	}{}
	for _, s := range rep.Sections {
		js := budgetSectionJSON{BudgetSection: s}
		for _, r := range s.Rows {
			row := make([]any, len(r))
			for i, cell := range r {
				if jsonNumber.MatchString(cell) {
					row[i] = json.Number(cell)
				} else {
					row[i] = cell
				}
			}
			js.Rows = append(js.Rows, row)
		}
		out.Sections = append(out.Sections, js)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
