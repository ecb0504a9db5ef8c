package fabric

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fabricmodel/fabricmodel/internal/yamlfile"
	"go.yaml.in/yaml/v3"
)

// Setting is a scenario key given its value outside the scenario file
// (`fabricmodel run --set`): a dotted key path ("nic.cc") and a value
// read as YAML ("hpcc", "[0, 3]").
type Setting struct {
	Key, Value string
}

// String is the setting as it is written: KEY=VALUE.
func (st Setting) String() string { return st.Key + "=" + st.Value }

// ParseSetting reads a setting written KEY=VALUE (the first = ends the
// key; the key is a dotted path of scenario keys).
func ParseSetting(text string) (Setting, error) {
	key, value, ok := strings.Cut(text, "=")
	key = strings.TrimSpace(key)
	switch {
	case !ok:
		return Setting{}, fmt.Errorf("%q: want KEY=VALUE (nic.cc=hpcc)", text)
	case key == "":
		return Setting{}, fmt.Errorf("%q: no key before the =", text)
	case strings.TrimSpace(value) == "":
		return Setting{}, fmt.Errorf("%q: no value after the =", text)
	}
	for _, k := range strings.Split(key, ".") {
		if k == "" {
			return Setting{}, fmt.Errorf("%q: an empty key in the path %s", text, key)
		}
	}
	return Setting{Key: key, Value: value}, nil
}

// SettingError is ParseScenarioWith's error about a setting it could not
// write over the text's keys: a key set twice, or a path through a key
// whose value is not a mapping. Setting is the one at fault, so that a
// program that made the settings can say which of its values it was.
type SettingError struct {
	Setting Setting
	err     error
}

func (e *SettingError) Error() string { return e.err.Error() }
func (e *SettingError) Unwrap() error { return e.err }

// ParseScenarioWith is ParseScenario with settings written over the
// text's keys, in their order: each replaces the key it names, or adds
// it. The scenario is then decoded and checked as a whole, as ParseScenario
// does. An error about a key a setting wrote (or one below or above it)
// names "name with KEY=VALUE, ..." and the key, without a line, as the
// file's text no longer says it; an error about a key no setting touched
// keeps the file's line of it ("name:12: ..."); the YAML library's
// errors about the text the settings made name the file with them. A key
// set twice, or a setting that cannot be written, is a *SettingError.
// With no settings it is ParseScenario.
func ParseScenarioWith(name string, data []byte, settings []Setting) (*Scenario, error) {
	if len(settings) == 0 {
		return ParseScenario(name, data)
	}
	doc, err := scenarioFile.Document(data)
	if err != nil {
		// the file's own text is at fault: its lines stand
		if _, perr := ParseScenario(name, data); perr != nil {
			return nil, perr
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	file, _ := scenarioFile.Document(data) // the file's own lines, which doc loses where it is written
	if len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s: want a mapping of scenario keys to write settings into", name)
	}
	src := &scenarioSource{name: name, root: file}
	label := make([]string, len(settings))
	for i, st := range settings {
		if slices.Contains(src.set, st.Key) {
			return nil, &SettingError{st, fmt.Errorf("%s: setting %s: %s is set twice", name, st, st.Key)}
		}
		src.set = append(src.set, st.Key)
		if err := yamlfile.Set(doc.Content[0], st.Key, st.Value); err != nil {
			return nil, &SettingError{st, fmt.Errorf("%s: setting %s: %w", name, st, err)}
		}
		label[i] = st.String()
	}
	src.with = name + " with " + strings.Join(label, ", ")
	text, err := yaml.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", src.with, err)
	}
	s, err := parseScenario(src, text, false)
	if err != nil {
		return nil, err
	}
	s.settings = label
	return s, nil
}

// LoadScenarioWith is LoadScenario with settings (ParseScenarioWith).
func LoadScenarioWith(path string, settings []Setting) (*Scenario, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s, err := ParseScenarioWith(path, data, settings)
	if err != nil {
		return nil, err
	}
	s.Dir = filepath.Dir(path)
	return s, nil
}

// DefaultScenarioWith is DefaultScenario with settings (ParseScenarioWith).
func DefaultScenarioWith(settings []Setting) (*Scenario, error) {
	return ParseScenarioWith("default_scenario.yaml", defaultScenario, settings)
}

// Settings returns the settings written over the scenario's file, as
// KEY=VALUE in their order; none for a scenario read as it is.
func (s *Scenario) Settings() []string { return s.settings }
