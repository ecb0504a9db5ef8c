package fabric

import (
	"errors"
	"fmt"
	"strings"

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
		return fmt.Errorf("%s: %w (a scenario needs at least topology and workload)", src.name, err)
	}
	if err != nil {
		return textErrors(src.name, fileErrors(err), lines)
	}
	if errs := numberErrors(root); len(errs) > 0 {
		return textErrors(src.name, errs, lines)
	}
	if err := yamlfile.Decode(scenarioFile, data, root, s); err != nil {
		return textErrors(src.name, fileErrors(err), lines)
	}
	if errs := workloadKeyErrors(root, s.Workload.Kind); len(errs) > 0 {
		return textErrors(src.name, errs, lines)
	}
	if lines {
		src.root = root
	}
	return nil
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
