package verify

import (
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Ref is a signal reference in a signal map: a hierarchical name as the VCD
// has it with an optional bit slice ("top.dut.data[15:8]", "top.dut.v[3]"),
// or a constant ("1", "0x11", "0b101"). It remembers the line it came from.
type Ref struct {
	// Text is the reference as written.
	Text string
	// Line is its line in the signal map, 0 when built in code.
	Line int
}

// UnmarshalYAML takes a scalar and records its line.
func (r *Ref) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("line %d: a signal reference must be a string, not a %s", n.Line, kindName(n.Kind))
	}
	r.Text, r.Line = strings.TrimSpace(n.Value), n.Line
	return nil
}

func kindName(k yaml.Kind) string {
	switch k {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "sequence"
	case yaml.AliasNode:
		return "alias"
	}
	return "scalar"
}

// IsSet reports whether the reference was given.
func (r Ref) IsSet() bool { return r.Text != "" }

// parsedRef is a Ref taken apart.
type parsedRef struct {
	constant bool
	value    uint64
	name     string // full name without the slice
	sliced   bool
	msb, lsb int
}

// parseRef splits a reference into a constant or a name and slice; scope,
// when not empty, is put in front of names.
func parseRef(r Ref, scope string) (parsedRef, error) {
	s := r.Text
	if s == "" {
		return parsedRef{}, fmt.Errorf("empty signal reference")
	}
	if c := s[0]; c >= '0' && c <= '9' {
		v, err := strconv.ParseUint(strings.ReplaceAll(s, "_", ""), 0, 64)
		if err != nil {
			return parsedRef{}, fmt.Errorf("constant %q: not an unsigned 64-bit number (decimal, 0x, 0b or 0o)", s)
		}
		return parsedRef{constant: true, value: v}, nil
	}
	p := parsedRef{name: s}
	if strings.HasSuffix(s, "]") {
		i := strings.LastIndexByte(s, '[')
		if i <= 0 {
			return parsedRef{}, fmt.Errorf("signal %q: unbalanced bit slice", s)
		}
		a, b, colon := strings.Cut(s[i+1:len(s)-1], ":")
		msb, err1 := strconv.Atoi(strings.TrimSpace(a))
		lsb, err2 := msb, error(nil)
		if colon {
			lsb, err2 = strconv.Atoi(strings.TrimSpace(b))
		}
		if err1 != nil || err2 != nil || msb < 0 || lsb < 0 || msb > 1<<20 || lsb > 1<<20 {
			return parsedRef{}, fmt.Errorf("signal %q: bit slice must be [msb:lsb] or [bit] with small non-negative numbers", s)
		}
		p.name, p.sliced, p.msb, p.lsb = strings.TrimRight(s[:i], " \t"), true, msb, lsb
	}
	if p.name == "" {
		return parsedRef{}, fmt.Errorf("signal %q: no name before the bit slice", s)
	}
	if scope != "" {
		p.name = scope + "." + p.name
	}
	return p, nil
}
