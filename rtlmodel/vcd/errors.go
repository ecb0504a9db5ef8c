package vcd

import (
	"errors"
	"fmt"
)

// SyntaxError reports malformed VCD input and where it was found.
type SyntaxError struct {
	// Name is the input's name as given to [WithName], or empty.
	Name string
	// Line is the 1-based line on which the offending token starts.
	Line int
	// Msg says what is wrong.
	Msg string
}

// Error formats the error as "name:line: msg" (or "vcd: line N: msg" without a name).
func (e *SyntaxError) Error() string {
	if e.Name != "" {
		return fmt.Sprintf("%s:%d: %s", e.Name, e.Line, e.Msg)
	}
	return fmt.Sprintf("vcd: line %d: %s", e.Line, e.Msg)
}

// ErrClosed is returned by Writer methods called after Close.
var ErrClosed = errors.New("vcd: writer is closed")

// ErrDefinitionsEnded is returned when a scope or variable is declared after
// the first time step has been written.
var ErrDefinitionsEnded = errors.New("vcd: definitions already ended")

// ErrBadHandle is returned for a Handle that the Writer did not issue.
var ErrBadHandle = errors.New("vcd: unknown handle")
