package yamlfile

import (
	"errors"
	"fmt"
	"strings"
)

// Error is an error about one line of a file (Line 0: no line to give).
// Its text is the wrapped error's; Locate puts the file and line in front.
type Error struct {
	Line int
	Err  error
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// AtLine marks err (nil stays nil) as about line of the file.
func AtLine(line int, err error) error {
	if err == nil {
		return nil
	}
	return &Error{Line: line, Err: err}
}

// Locate prefixes err with the file's name and, for an error about a line,
// that line: "sweep.yaml:12: ..."; without a name (text given with no
// file), "line 12: ...". Joined errors are located one by one, a line
// each.
func Locate(name string, err error) error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var lines []string
		for _, e := range j.Unwrap() {
			lines = append(lines, Locate(name, e).Error())
		}
		return errors.New(strings.Join(lines, "\n"))
	}
	line := 0
	if le := (*Error)(nil); errors.As(err, &le) {
		line = le.Line
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

// Errors lists the errors err joins (err itself when it joins none), each
// as an *Error: its line, or 0 when it has none.
func Errors(err error) []*Error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []*Error
		for _, e := range j.Unwrap() {
			out = append(out, Errors(e)...)
		}
		return out
	}
	if le := (*Error)(nil); errors.As(err, &le) {
		return []*Error{{Line: le.Line, Err: err}}
	}
	return []*Error{{Err: err}}
}
