package vcd

import "strings"

// Header is everything a VCD file declares before $enddefinitions: the
// $date, $version and $comment texts, the timescale, the scope tree and the
// variables.
type Header struct {
	// Date is the body of $date with its whitespace collapsed, or empty.
	Date string
	// Version is the body of $version with its whitespace collapsed, or empty.
	Version string
	// Comments holds the bodies of the $comment sections of the header.
	Comments []string
	// Timescale is the file's timescale; the zero value if none was given.
	Timescale Timescale
	// Scopes are the top-level scopes in declaration order.
	Scopes []*Scope
	// Vars are all variables in declaration order, including those declared
	// outside any scope.
	Vars []*Var
	// Signals holds one entry per identifier code, in order of first declaration.
	Signals []*Signal

	byCode map[string]*Signal
	byName map[string][]*Var
}

// Signal returns the signal with the given identifier code, or nil.
func (h *Header) Signal(code string) *Signal { return h.byCode[code] }

// Lookup returns every variable declared under a full hierarchical name
// ("top.dut.data"), in declaration order; usually one, several when a file
// declares the same name with different identifier codes. A trailing
// bit-select in the query ("top.dut.data[7:0]" or "top.dut.data [7:0]") is
// matched against the declared range.
func (h *Header) Lookup(fullName string) []*Var {
	if v, ok := h.byName[fullName]; ok {
		return v
	}
	q := strings.TrimSpace(fullName)
	i := strings.LastIndexByte(q, '[')
	if i <= 0 || !strings.HasSuffix(q, "]") {
		return nil
	}
	name, rng := q[:i], q[i:]
	name = strings.TrimRight(name, " \t")
	var out []*Var
	for _, v := range h.byName[name] {
		if v.Range == rng {
			out = append(out, v)
		}
	}
	return out
}

// Var returns the first variable declared under fullName (see Lookup), or nil.
func (h *Header) Var(fullName string) *Var {
	if v := h.Lookup(fullName); len(v) > 0 {
		return v[0]
	}
	return nil
}

// Scope is one $scope of the hierarchy. Scopes declared twice under the same
// parent with the same name are merged into one.
type Scope struct {
	// Type is the scope kind; ScopeOther for keywords this package does not know.
	Type ScopeType
	// TypeName is the scope_type keyword as written ("module", "begin").
	TypeName string
	// Name is the scope identifier as written ("crc[0]", "gen(0)").
	Name string
	// Parent is the enclosing scope, nil at the top level.
	Parent *Scope
	// Scopes are the nested scopes in declaration order.
	Scopes []*Scope
	// Vars are the variables declared directly in this scope.
	Vars []*Var
	// Line is the line of the $scope declaration.
	Line int

	fullName string
}

// FullName returns the dot-separated path from the top scope ("top.dut.crc[0]").
func (s *Scope) FullName() string { return s.fullName }

// Var is one $var declaration: a name in a scope bound to an identifier code.
type Var struct {
	// Type is the variable kind; VarOther for keywords this package does not know.
	Type VarType
	// TypeName is the var_type keyword as written ("wire", "reg", "logic").
	TypeName string
	// Width is the declared size in bits.
	Width int
	// Code is the identifier code.
	Code string
	// Name is the reference without its bit-select ("data").
	Name string
	// Range is the bit-select as written, without spaces ("[7:0]", "[3]"),
	// or empty. A range written apart from the name is always a bit-select;
	// one attached to the name is taken as a bit-select when it has a colon
	// ("data[7:0]"), and otherwise stays part of the name ("mem[3]").
	Range string
	// Scope is the enclosing scope, nil for a variable outside any scope.
	Scope *Scope
	// Signal is the value holder this variable names, shared by its aliases.
	Signal *Signal
	// Line is the line of the $var declaration.
	Line int

	fullName string
}

// FullName returns the hierarchical name without the bit-select ("top.dut.data").
func (v *Var) FullName() string { return v.fullName }

// MSBLSB parses Range: for "[7:0]" they give 7, 0 and true; for "[3]"
// 3, 3 and true; without a numeric range 0, 0 and false.
func (v *Var) MSBLSB() (msb, lsb int, ok bool) {
	r := v.Range
	if len(r) < 3 || r[0] != '[' || r[len(r)-1] != ']' {
		return 0, 0, false
	}
	r = r[1 : len(r)-1]
	a, b, colon := strings.Cut(r, ":")
	msb, ok1 := atoiSigned(a)
	if !colon {
		return msb, msb, ok1
	}
	lsb, ok2 := atoiSigned(b)
	return msb, lsb, ok1 && ok2
}

// Signal is the value holder behind one identifier code. Several variables
// (aliases) may share it; a change to the code changes all of them.
type Signal struct {
	// Code is the identifier code.
	Code string
	// Width is the size in bits, as declared by the first variable.
	Width int
	// Real reports whether the first declaration has a real type.
	Real bool
	// Vars are the variables that name this signal, in declaration order.
	Vars []*Var
	// Index is the position of the signal in Header.Signals, for callers
	// that keep per-signal state in a slice.
	Index int

	val sigValue
}

// Value returns the signal's value as of the last event the Reader
// returned. Bits returned by it are overwritten by the next change of this
// signal; copy them to keep them.
func (s *Signal) Value() Value { return s.val.value(s.Width) }

func atoiSigned(s string) (int, bool) {
	neg := false
	if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if s == "" || len(s) > 9 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// splitRange splits "data[7:0]" or "data [7:0]" into "data" and "[7:0]"
// when the last bracket group holds a colon; otherwise it returns s and "".
func splitRange(s string) (name, rng string) {
	if !strings.HasSuffix(s, "]") {
		return s, ""
	}
	i := strings.LastIndexByte(s, '[')
	if i <= 0 || !strings.Contains(s[i:], ":") {
		return s, ""
	}
	return s[:i], s[i:]
}
