package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// --format csv is one table a CSV reader takes whole: a single header
// led by "section", every row as wide as it, led by its section's title,
// with each cell under its own column's name.
func TestBudgetCSVIsOneTable(t *testing.T) {
	out, err := runCLI(t, "budget", "--format", "csv")
	require.NoError(t, err)
	r := csv.NewReader(strings.NewReader(out)) // refuses rows of another width
	rows, err := r.ReadAll()
	require.NoError(t, err)
	header := rows[0]
	require.Equal(t, "section", header[0])
	col := map[string]int{}
	for i, name := range header {
		_, dup := col[name]
		require.False(t, dup, "column %q twice", name)
		col[name] = i
	}
	titles := map[string]bool{}
	for _, row := range rows[1:] {
		require.NotEqual(t, "section", row[0], "a header inside the table")
		titles[row[0]] = true
	}
	require.Greater(t, len(titles), 8)
	first := rows[1]
	require.Contains(t, first[0], "Switch port to port")
	require.Equal(t, "2.720", first[col["ns"]])
	require.Empty(t, first[col["quantity"]])
	last := rows[len(rows)-1]
	require.Equal(t, "Endpoints reachable", last[0])
	require.Equal(t, "512", last[col["radix"]])
	require.Empty(t, last[col["ns"]])
}

// --format json gives the cells that are numbers as JSON numbers, with
// the digits the table prints, and the rest (a unit, a "-") as strings.
func TestBudgetJSONNumbersAreNumbers(t *testing.T) {
	out, err := runCLI(t, "budget", "--format", "json")
	require.NoError(t, err)
	var rep struct {
		Sections []struct {
			Title   string
			Columns []string
			Rows    [][]any
		}
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(out)))
	dec.UseNumber()
	require.NoError(t, dec.Decode(&rep))
	first := rep.Sections[0].Rows[0]
	require.Equal(t, []any{"ingress: receive preamble + 128 B", "-", "-", json.Number("2.720"), json.Number("2.720"),
		"serdes.Wire at the port's MAC rate (FACTS 3)"}, first)
	last := rep.Sections[len(rep.Sections)-1]
	require.Equal(t, "Endpoints reachable", last.Title)
	require.Equal(t, json.Number("512"), last.Rows[3][0])
	require.Equal(t, "682.68x", last.Rows[3][4])
}
