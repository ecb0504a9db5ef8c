package packet

import "fmt"

// Problem classifies why a decoder rejected its input.
type Problem uint8

// The problems a decoder can report.
const (
	// Truncated means the buffer ended before the field.
	Truncated Problem = iota + 1
	// BadVersion means a version field holds a value this decoder does not speak.
	BadVersion
	// BadLength means a length field disagrees with the buffer or the header.
	BadLength
	// BadValue means a field holds a value the format forbids (unknown opcode, reserved code).
	BadValue
	// BadChecksum means a checksum or CRC does not match the bytes it covers.
	BadChecksum
)

// String names the problem.
func (p Problem) String() string {
	switch p {
	case Truncated:
		return "truncated"
	case BadVersion:
		return "bad version"
	case BadLength:
		return "bad length"
	case BadValue:
		return "bad value"
	case BadChecksum:
		return "bad checksum"
	}
	return fmt.Sprintf("problem(%d)", uint8(p))
}

// FieldError is the error every decoder in this package returns for malformed
// input: which header, which field, what is wrong, and the offending value
// where there is one. Decoders never panic on outside input.
type FieldError struct {
	Header  string  // e.g. "IPv4", "BTH"
	Field   string  // e.g. "IHL", "OpCode"
	Problem Problem // what is wrong
	Value   uint64  // the offending value, when the problem has one
	Need    int     // bytes needed, for Truncated
	Have    int     // bytes present, for Truncated
}

// Error implements error.
func (e *FieldError) Error() string {
	switch e.Problem {
	case Truncated:
		return fmt.Sprintf("%s.%s: truncated: need %d bytes, have %d", e.Header, e.Field, e.Need, e.Have)
	default:
		return fmt.Sprintf("%s.%s: %s 0x%x", e.Header, e.Field, e.Problem, e.Value)
	}
}

// truncated returns the error for a buffer shorter than need.
func truncated(header, field string, need, have int) error {
	return &FieldError{Header: header, Field: field, Problem: Truncated, Need: need, Have: have}
}

// badField returns the error for a field with a value the format forbids.
func badField(header, field string, p Problem, v uint64) error {
	return &FieldError{Header: header, Field: field, Problem: p, Value: v}
}
