package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/fabricmodel/fabricmodel/fabric"
	"github.com/fabricmodel/fabricmodel/internal/yamlfile"
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
			"parameters and stages the cycle model runs on; --set changes one (see --list for each one's range).\n" +
			"A value out of its range, a parameter given twice in --config or twice with --set, or one that\n" +
			"conflicts with another is an error naming the file and line, or the flag; --set may change a\n" +
			"value --config gave. switch.pipes rebuilds the port plan on that many pipes.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "table", Usage: "table, markdown, json or csv (one table, led by a section column)"},
			&cli.StringSliceFlag{Name: "set", Usage: "override a parameter: `NAME=VALUE` (repeatable, each NAME once; applied after --config)"},
			&cli.StringFlag{Name: "config", Usage: "read overrides from a YAML `FILE` of NAME: VALUE lines"},
			&cli.BoolFlag{Name: "list", Usage: "list the parameters --set accepts and their ranges"},
		},
		Action: runBudget,
	}
}

func runBudget(c *cli.Context) error {
	w := c.App.Writer
	if c.NArg() > 0 {
		return fmt.Errorf("budget takes no arguments (got %q): give parameters with --set or --config", c.Args().Slice())
	}
	if c.Bool("list") {
		t := tablewriter.NewWriter(w)
		t.Header("parameter", "unit", "meaning")
		for _, p := range fabric.BudgetParams() {
			_ = t.Append(p[0], p[1], p[2])
		}
		return t.Render()
	}
	cfg := fabric.DefaultBudgetConfig()
	given := budgetSources{}
	if path := c.String("config"); path != "" {
		if err := applyBudgetFile(&cfg, path, given); err != nil {
			return err
		}
	}
	set := map[string]string{}
	for _, kv := range c.StringSlice("set") {
		name, value, ok := strings.Cut(kv, "=")
		if !ok {
			return fmt.Errorf("--set %q: want NAME=VALUE", kv)
		}
		if first, dup := set[name]; dup {
			return fmt.Errorf("--set %s: %s set twice (first --set %s)", kv, name, first)
		}
		set[name] = kv
		where := "--set " + kv
		if err := cfg.Set(name, value); err != nil {
			return given.locate(err, where, name)
		}
		given[name] = where
	}
	if err := cfg.Validate(); err != nil {
		return given.locateRelated(err)
	}
	rep, err := fabric.ComputeBudget(cfg)
	if err != nil {
		return err
	}
	return writeBudget(w, rep, c.String("format"))
}

// budgetFile is the kind of file --config reads, as errors name it.
var budgetFile = yamlfile.Kind{Name: "budget", Holds: "one mapping of parameter: value"}

// applyBudgetFile reads NAME: VALUE overrides, noting in given where each
// was set; errors name the file and line.
func applyBudgetFile(cfg *fabric.BudgetConfig, path string, given budgetSources) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	doc, err := budgetFile.Document(data)
	if errors.Is(err, yamlfile.ErrEmpty) {
		return nil // only comments: nothing to override
	}
	if err != nil {
		return yamlfile.Locate(path, err)
	}
	m := doc.Content[0]
	if m.Kind != yaml.MappingNode {
		return fmt.Errorf("%s:%d: want a mapping of parameter: value", path, m.Line)
	}
	lines := map[string]int{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if first, dup := lines[k.Value]; dup {
			return fmt.Errorf("%s:%d: %s: set twice (first at line %d)", path, k.Line, k.Value, first)
		}
		lines[k.Value] = k.Line
		where := fmt.Sprintf("%s:%d", path, k.Line)
		if v.Kind != yaml.ScalarNode {
			return fmt.Errorf("%s: %s: want a single value", where, k.Value)
		}
		if err := cfg.Set(k.Value, v.Value); err != nil {
			return given.locate(err, where, k.Value)
		}
		given[k.Value] = where
	}
	return nil
}

// budgetSources says where each budget parameter given was set:
// "file.yaml:3" or "--set NAME=VALUE".
type budgetSources map[string]string

// locate puts where in front of an error about parameter name: a file's
// "file.yaml:3: nic.mtu -5: ...", or a flag's "--set nic.mtu=-5: ..."
// (the flag shows the value already).
func (s budgetSources) locate(err error, where, name string) error {
	var pe *fabric.BudgetParamError
	if strings.HasPrefix(where, "--") && errors.As(err, &pe) && pe.Name == name {
		return fmt.Errorf("%s: %s", where, pe.Reason)
	}
	return fmt.Errorf("%s: %w", where, err)
}

// locateRelated locates an error of fabric.BudgetConfig.Validate at the
// parameter it is about, or at the one it conflicts with when only that
// one was given.
func (s budgetSources) locateRelated(err error) error {
	var pe *fabric.BudgetParamError
	if !errors.As(err, &pe) {
		return err
	}
	for _, name := range []string{pe.Name, pe.Related} {
		if where, ok := s[name]; ok && name != "" {
			return s.locate(err, where, name)
		}
	}
	return err
}

func writeBudget(w io.Writer, rep *fabric.BudgetReport, format string) error {
	switch format {
	case "json":
		return writeBudgetJSON(w, rep)
	case "csv":
		return writeBudgetCSV(w, rep)
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
