package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/fabricmodel/fabricmodel/fabric"
	"github.com/olekukonko/tablewriter"
	"github.com/urfave/cli/v2"
	"go.yaml.in/yaml/v3"
)

func init() { commands = append(commands, budgetCommand()) }

func budgetCommand() *cli.Command {
	return &cli.Command{
		Name:  "budget",
		Usage: "latency, throughput and scale budgets computed from the models",
		Description: "Prints the switch port-to-port budget, the NIC transmit and receive paths, the end-to-end\n" +
			"latency of an inline RDMA WRITE through one switch (QP context cached and missed), the SerDes,\n" +
			"header, PCIe and switch rate budgets, and the scale budgets. Every figure comes from the same\n" +
			"parameters and stages the cycle model runs on; --set changes one (see --list).",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "table", Usage: "table, markdown, json or csv"},
			&cli.StringSliceFlag{Name: "set", Usage: "override a parameter: `NAME=VALUE` (repeatable)"},
			&cli.StringFlag{Name: "config", Usage: "read overrides from a YAML `FILE` of NAME: VALUE lines"},
			&cli.BoolFlag{Name: "list", Usage: "list the parameters --set accepts"},
		},
		Action: runBudget,
	}
}

func runBudget(c *cli.Context) error {
	w := c.App.Writer
	if c.Bool("list") {
		t := tablewriter.NewWriter(w)
		t.Header("parameter", "unit", "meaning")
		for _, p := range fabric.BudgetParams() {
			_ = t.Append(p[0], p[1], p[2])
		}
		return t.Render()
	}
	cfg := fabric.DefaultBudgetConfig()
	if path := c.String("config"); path != "" {
		if err := applyBudgetFile(&cfg, path); err != nil {
			return err
		}
	}
	for _, kv := range c.StringSlice("set") {
		name, value, ok := strings.Cut(kv, "=")
		if !ok {
			return fmt.Errorf("--set %q: want NAME=VALUE", kv)
		}
		if err := cfg.Set(name, value); err != nil {
			return fmt.Errorf("--set: %w", err)
		}
	}
	rep, err := fabric.ComputeBudget(cfg)
	if err != nil {
		return err
	}
	return writeBudget(w, rep, c.String("format"))
}

// applyBudgetFile reads NAME: VALUE overrides; errors name the file and line.
func applyBudgetFile(cfg *fabric.BudgetConfig, path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc, second yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil // only comments: nothing to override
		}
		return fmt.Errorf("%s: %w", path, err)
	}
	switch err := dec.Decode(&second); {
	case err == nil:
		return fmt.Errorf("%s:%d: a second YAML document: a budget file holds one mapping of parameter: value", path, max(second.Line, 1))
	case !errors.Is(err, io.EOF):
		return fmt.Errorf("%s: %w", path, err)
	}
	if len(doc.Content) == 0 {
		return nil
	}
	m := doc.Content[0]
	if m.Kind != yaml.MappingNode {
		return fmt.Errorf("%s:%d: want a mapping of parameter: value", path, m.Line)
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if v.Kind != yaml.ScalarNode {
			return fmt.Errorf("%s:%d: %s: want a single value", path, v.Line, k.Value)
		}
		if err := cfg.Set(k.Value, v.Value); err != nil {
			return fmt.Errorf("%s:%d: %w", path, k.Line, err)
		}
	}
	return nil
}

func writeBudget(w io.Writer, rep *fabric.BudgetReport, format string) error {
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	case "csv":
		cw := csv.NewWriter(w)
		for _, s := range rep.Sections {
			_ = cw.Write(append([]string{"section"}, s.Columns...))
			for _, r := range s.Rows {
				_ = cw.Write(append([]string{s.Title}, r...))
			}
		}
		cw.Flush()
		return cw.Error()
	case "markdown":
		for _, s := range rep.Sections {
			fmt.Fprintf(w, "### %s\n\n| %s |\n|%s\n", s.Title, strings.Join(s.Columns, " | "), strings.Repeat(" --- |", len(s.Columns)))
			for _, r := range s.Rows {
				fmt.Fprintf(w, "| %s |\n", strings.Join(r, " | "))
			}
			fmt.Fprintln(w)
		}
		return nil
	case "table":
		for _, s := range rep.Sections {
			fmt.Fprintf(w, "%s\n", s.Title)
			t := tablewriter.NewWriter(w)
			hdr := make([]any, len(s.Columns))
			for i, c := range s.Columns {
				hdr[i] = c
			}
			t.Header(hdr...)
			for _, r := range s.Rows {
				_ = t.Append(r)
			}
			if err := t.Render(); err != nil {
				return err
			}
			fmt.Fprintln(w)
		}
		return nil
	}
	return fmt.Errorf("--format %q: want table, markdown, json or csv", format)
}
