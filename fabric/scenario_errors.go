package fabric

import (
	"errors"
	"fmt"
	"strings"

	"github.com/fabricmodel/fabricmodel/internal/yamlfile"
	"go.yaml.in/yaml/v3"
)

// keyError is an error about one key of a scenario file, named by its
// dotted path ("switch.ecn.pmax"), so that the loader can put the key's
// line in front of it. Its text is the wrapped error's.
type keyError struct {
	key string
	err error
}

func (e *keyError) Error() string { return e.err.Error() }
func (e *keyError) Unwrap() error { return e.err }

// keyed marks err (nil stays nil) as about the scenario key at path.
func keyed(path string, err error) error {
	if err == nil {
		return nil
	}
	return &keyError{key: path, err: err}
}

// ErrorKey returns the dotted path of the scenario key ("workload.senders")
// that an error of ParseScenario, ParseScenarioWith, NewRun or
// Validate is about, so that a program that wrote the scenario's values
// can say which of them is at fault; ok is false when it names no key.
func ErrorKey(err error) (key string, ok bool) {
	var ke *keyError
	if errors.As(err, &ke) {
		return ke.key, true
	}
	return "", false
}

// keyedUnder marks err as about the key at path, or, when it names a key
// of its own already (relative to path, found deeper), about that key
// below path.
func keyedUnder(path string, err error) error {
	if err == nil {
		return nil
	}
	var ke *keyError
	if errors.As(err, &ke) {
		path += "." + ke.key
	}
	return keyed(path, err)
}

// traceFileError is an error at a line of the trace file a workload of
// kind csv reads, located in the trace as "t.csv:3: ..."; locate adds
// the scenario line that names the trace after it, not the scenario's
// name before it.
type traceFileError struct {
	path string
	line int
	err  error
}

func (e *traceFileError) Error() string { return fmt.Sprintf("%s:%d: %v", e.path, e.line, e.err) }
func (e *traceFileError) Unwrap() error { return e.err }

// scenarioSource is where a scenario was read from: the file's name and
// its YAML tree, for the lines of its keys. With settings written over
// the file (ParseScenarioWith), set holds the keys they wrote and with
// names the file with them ("s.yaml with nic.cc=hpcc"); root is the
// file's own tree, whose lines stand for every key no setting touched.
type scenarioSource struct {
	name string
	root *yaml.Node
	set  []string
	with string
}

// label names the text decoded: the file, or the file with its settings.
func (src *scenarioSource) label() string {
	if src.with != "" {
		return src.with
	}
	return src.name
}

// where names the place of the scenario key at path: "file:line" from
// the file's tree (a key the file does not set: its nearest enclosing
// key that it does); the file with its settings for a key a setting
// wrote, one below it or one holding it, or one in a mapping a setting
// made (switch.ecn.kmax_bytes, when the file has no switch.ecn and
// switch.ecn.kmin_bytes is set), as the file's text does not say it;
// the label alone where the file gives no line.
func (src *scenarioSource) where(path string) string {
	line, depth := yamlfile.DeepestKey(src.root, path)
	keys := strings.Split(path, ".")
	made := "" // the first key on the path the file lacks, with its parents
	if depth < len(keys) {
		made = strings.Join(keys[:depth+1], ".")
	}
	for _, k := range src.set {
		if path == k || strings.HasPrefix(path, k+".") || strings.HasPrefix(k, path+".") ||
			made != "" && strings.HasPrefix(k, made+".") {
			return src.with
		}
	}
	if line > 0 {
		return fmt.Sprintf("%s:%d", src.name, line)
	}
	return src.label()
}

// locate prefixes err with where it is: for an error about a key
// (keyed), that key's place (scenarioSource.where: "file.yaml:12: ...");
// for another, the file's name (with its settings). An error at a line
// of the trace (traceFileError) keeps the trace's name and line in front
// and gets the place of workload.file after. Joined errors are located
// one by one, a line each.
func (s *Scenario) locate(err error) error {
	if err == nil || s.src == nil {
		return err
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var lines []string
		for _, e := range j.Unwrap() {
			lines = append(lines, s.locate(e).Error())
		}
		return errors.New(strings.Join(lines, "\n"))
	}
	var te *traceFileError
	if errors.As(err, &te) {
		return fmt.Errorf("%w (the trace of %s)", err, s.src.where("workload.file"))
	}
	var ke *keyError
	if errors.As(err, &ke) {
		return fmt.Errorf("%s: %w", s.src.where(ke.key), err)
	}
	return fmt.Errorf("%s: %w", s.src.label(), err)
}
