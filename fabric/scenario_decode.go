package fabric

import (
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/fabricmodel/fabricmodel/internal/yamlfile"
)

// scenarioFile is the kind of file a scenario is, as errors name it.
var scenarioFile = yamlfile.Kind{Name: "scenario"}

// decodeScenario reads a scenario's text: exactly one YAML document,
// decoded strictly into s, its tree kept in src for the lines of later
// errors. The YAML library's errors come back in the scenario's own
// terms, one per line: "s.yaml:8: workload.bogus: unknown key; workload
// takes kind, bytes, ..." rather than "line 8: field bogus not found in
// type fabric.ScenarioWorkload". With lines false (text a program wrote)
// the lines are left out.
func decodeScenario(s *Scenario, src *scenarioSource, data []byte, lines bool) error {
	root, err := scenarioFile.Document(data)
	if errors.Is(err, yamlfile.ErrEmpty) {
		return fmt.Errorf("%s: %w (a scenario needs at least topology and workload)", src.label(), err)
	}
	if err != nil {
		return textErrors(src.label(), fileErrors(err), lines)
	}
	if errs := sweepFileErrors(root); len(errs) > 0 {
		return textErrors(src.label(), errs, lines)
	}
	if errs := numberErrors(root); len(errs) > 0 {
		return textErrors(src.label(), errs, lines)
	}
	if err := yamlfile.Decode(scenarioFile, data, root, s); err != nil {
		return textErrors(src.label(), fileErrors(err), lines)
	}
	if errs := workloadKeyErrors(root, s.Workload.Kind); len(errs) > 0 {
		return textErrors(src.label(), errs, lines)
	}
	noteOmittedPmax(root, s)
	if lines {
		src.root = root
	}
	return nil
}

// sweepFileErrors says that a file whose top-level keys are a sweep's
// (evaluator and parameters) is a sweep file, at the line of its
// evaluator, rather than list each of its keys as unknown to a scenario.
func sweepFileErrors(root *yaml.Node) []textError {
	if len(root.Content) != 1 || root.Content[0].Kind != yaml.MappingNode {
		return nil
	}
	top := root.Content[0]
	line, parameters := 0, false
	for i := 0; i+1 < len(top.Content); i += 2 {
		switch top.Content[i].Value {
		case "evaluator":
			line = top.Content[i].Line
		case "parameters":
			parameters = true
		}
	}
	if line == 0 || !parameters {
		return nil
	}
	return []textError{{line: line, msg: "this is a sweep file (it has evaluator and parameters), not a scenario: run it with fabricmodel explore run"}}
}

// fileErrors lists the errors of package yamlfile as faults of the text.
func fileErrors(err error) []textError {
	var errs []textError
	for _, e := range yamlfile.Errors(err) {
		errs = append(errs, textError{line: e.Line, msg: e.Error()})
	}
	return errs
}

// textErrors formats faults of the text, one per line.
func textErrors(name string, errs []textError, lines bool) error {
	msgs := make([]string, len(errs))
	for i, e := range errs {
		msgs[i] = located(name, e.line, lines, e.msg).Error()
	}
	return errors.New(strings.Join(msgs, "\n"))
}

// located formats one message at a line of the file: "name:line: msg", or
// "name: msg" without lines.
func located(name string, line int, lines bool, msg string) error {
	if lines && line > 0 {
		return fmt.Errorf("%s:%d: %s", name, line, msg)
	}
	return fmt.Errorf("%s: %s", name, msg)
}
