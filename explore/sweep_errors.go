package explore

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// lineError is an error about one line of a sweep file (0: no line to
// give). Its text is the wrapped error's; locate puts the file and line
// in front.
type lineError struct {
	line int
	err  error
}

func (e *lineError) Error() string { return e.err.Error() }
func (e *lineError) Unwrap() error { return e.err }

// atLine marks err (nil stays nil) as about line of the sweep file.
func atLine(line int, err error) error {
	if err == nil {
		return nil
	}
	return &lineError{line: line, err: err}
}

// keyed marks err as about the key at a dotted path of the sweep file
// ("metrics.2", "design.kind"): the line of that key, or of the deepest
// key on the path the file has.
func (s *Sweep) keyed(path string, err error) error {
	return atLine(keyLine(s.root, path), err)
}

// locate prefixes err with the sweep file's name and, for an error about
// a line, that line: "sweep.yaml:12: ..."; without a name (text given to
// ParseSweep), "line 12: ...". Joined errors are located one by one, a
// line each.
func locate(name string, err error) error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var lines []string
		for _, e := range j.Unwrap() {
			lines = append(lines, locate(name, e).Error())
		}
		return errors.New(strings.Join(lines, "\n"))
	}
	var le *lineError
	line := 0
	if errors.As(err, &le) {
		line = le.line
	}
	switch {
	case name != "" && line > 0:
		return fmt.Errorf("%s:%d: %w", name, line, err)
	case name != "":
		return fmt.Errorf("%s: %w", name, err)
	case line > 0:
		return fmt.Errorf("line %d: %w", line, err)
	}
	return err
}

// keyLine returns the line of the key at the dotted path in a YAML
// document (a number indexes a list: "parameters.1.name"), or of the
// deepest key on that path the document has; 0 when it has none of them.
func keyLine(root *yaml.Node, path string) int {
	n := root
	if n != nil && n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	line := 0
	for _, k := range strings.Split(path, ".") {
		if n == nil {
			break
		}
		if i, err := strconv.Atoi(k); err == nil && n.Kind == yaml.SequenceNode {
			if i < 0 || i >= len(n.Content) {
				break
			}
			n = n.Content[i]
			line = n.Line
			continue
		}
		if n.Kind != yaml.MappingNode {
			break
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == k {
				line, next = n.Content[i].Line, n.Content[i+1]
				break
			}
		}
		n = next
	}
	return line
}
