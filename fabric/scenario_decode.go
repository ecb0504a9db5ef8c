package fabric

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// decodeScenario reads a scenario's text: exactly one YAML document,
// decoded strictly into s, its tree kept in src for the lines of later
// errors. The YAML library's errors come back in the scenario's own
// terms, one per line: "s.yaml:8: workload.bogus: unknown key; workload
// takes kind, bytes, ..." rather than "line 8: field bogus not found in
// type fabric.ScenarioWorkload". With lines false (text a program wrote)
// the lines are left out.
func decodeScenario(s *Scenario, src *scenarioSource, data []byte, lines bool) error {
	if err := checkUTF8(data); err != nil {
		return located(src.name, err.line, lines, err.msg)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	root := new(yaml.Node)
	if err := dec.Decode(root); err != nil {
		if errors.Is(err, io.EOF) {
			return fmt.Errorf("%s: no scenario: the file is empty or only comments (a scenario needs at least topology and workload)", src.name)
		}
		return yamlErrors(src.name, err, nil, lines)
	}
	var second yaml.Node
	switch err := dec.Decode(&second); {
	case err == nil:
		return located(src.name, max(second.Line, 1), lines,
			"a second YAML document: a scenario file holds one scenario (write each in a file of its own)")
	case !errors.Is(err, io.EOF):
		return yamlErrors(src.name, err, nil, lines)
	}
	if errs := numberErrors(root); len(errs) > 0 {
		return textErrors(src.name, errs, lines)
	}
	strict := yaml.NewDecoder(bytes.NewReader(data))
	strict.KnownFields(true)
	if err := strict.Decode(s); err != nil {
		return yamlErrors(src.name, err, root, lines)
	}
	if errs := workloadKeyErrors(root, s.Workload.Kind); len(errs) > 0 {
		return textErrors(src.name, errs, lines)
	}
	if lines {
		src.root = root
	}
	return nil
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

var (
	yamlLine      = regexp.MustCompile(`^line (\d+): (.*)$`)
	yamlUnknown   = regexp.MustCompile(`^field (.+) not found in type \S+$`)
	yamlType      = regexp.MustCompile("^cannot unmarshal !!(\\w+)(?: `(.*)`)? into (.+)$")
	yamlDuplicate = regexp.MustCompile(`^mapping key "(.*)" already defined at line (\d+)$`)
)

// yamlErrors rewrites a YAML library error about the scenario text, each
// of its messages on a line of its own. root, the document's tree when it
// parsed, gives the keys the messages are about.
func yamlErrors(name string, err error, root *yaml.Node, lines bool) error {
	var msgs []string
	var te *yaml.TypeError
	if errors.As(err, &te) {
		msgs = te.Errors
	} else {
		msgs = []string{strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	out := make([]string, 0, len(msgs))
	for _, m := range msgs {
		line := 0
		if g := yamlLine.FindStringSubmatch(m); g != nil {
			line, _ = strconv.Atoi(g[1])
			m = g[2]
		}
		out = append(out, located(name, line, lines, scenarioTerms(m, root, line)).Error())
	}
	return errors.New(strings.Join(out, "\n"))
}

// scenarioTerms says a YAML library message about the node at line in the
// scenario's terms: the dotted key it is about and what that key takes,
// instead of Go's type names. A message it does not know stays as it is.
func scenarioTerms(msg string, root *yaml.Node, line int) string {
	if g := yamlUnknown.FindStringSubmatch(msg); g != nil {
		path := nodePath(root, line, func(key, _ *yaml.Node) bool { return key.Value == g[1] })
		if path == "" {
			return fmt.Sprintf("%s: unknown key", g[1])
		}
		parent := parentPath(path)
		if keys := scenarioKeys(parent); len(keys) > 0 {
			where := parent
			if where == "" {
				where = "a scenario"
			}
			return fmt.Sprintf("%s: unknown key; %s takes %s", path, where, strings.Join(keys, ", "))
		}
		return fmt.Sprintf("%s: unknown key", path)
	}
	if g := yamlDuplicate.FindStringSubmatch(msg); g != nil {
		path := nodePath(root, line, func(key, _ *yaml.Node) bool { return key.Value == g[1] })
		if path == "" {
			path = g[1]
		}
		return fmt.Sprintf("%s: set twice (first at line %s)", path, g[2])
	}
	if g := yamlType.FindStringSubmatch(msg); g != nil {
		tag, value, into := g[1], g[2], g[3]
		path := nodePath(root, line, func(_, v *yaml.Node) bool { return v.ShortTag() == "!!"+tag && quotes(value, v.Value) })
		got := "a " + yamlKind(tag)
		if value != "" {
			got = value
		}
		text := fmt.Sprintf("%s is not %s", got, goKind(into))
		if path == "" {
			return text
		}
		return path + ": " + text
	}
	return msg
}

// parentPath is the path of the mapping that holds the last key of a
// dotted key path ("" for a key at the top).
func parentPath(path string) string {
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		return path[:i]
	}
	return ""
}

// nodePath returns the dotted key path ("workload.size_cdf.2.p") of the
// first key-value pair or list item, in document order, whose key or
// value node is at line and matches: match gets the key node (an empty
// node for a list item) and the value node. "" when none does.
func nodePath(root *yaml.Node, line int, match func(key, value *yaml.Node) bool) string {
	if root == nil || line <= 0 {
		return ""
	}
	n := root
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	path, _ := findNode(n, "", line, match)
	return path
}

func findNode(n *yaml.Node, path string, line int, match func(key, value *yaml.Node) bool) (string, bool) {
	join := func(k string) string {
		if path == "" {
			return k
		}
		return path + "." + k
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if (k.Line == line || v.Line == line) && match(k, v) {
				return join(k.Value), true
			}
			if p, ok := findNode(v, join(k.Value), line, match); ok {
				return p, true
			}
		}
	case yaml.SequenceNode:
		for i, v := range n.Content {
			if v.Line == line && match(&yaml.Node{}, v) {
				return join(strconv.Itoa(i)), true
			}
			if p, ok := findNode(v, join(strconv.Itoa(i)), line, match); ok {
				return p, true
			}
		}
	}
	return "", false
}

// scenarioKeys lists the keys the mapping at the dotted path of a
// scenario takes, in the order the scenario's types declare them; nil
// when the path names no mapping of fixed keys.
func scenarioKeys(path string) []string {
	t := reflect.TypeFor[Scenario]()
	if path != "" {
		for _, k := range strings.Split(path, ".") {
			if t = fieldType(t, k); t == nil {
				return nil
			}
		}
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	return yamlKeys(t)
}

// fieldType follows one key (a list index for a list) from type t.
func fieldType(t reflect.Type, key string) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		if _, err := strconv.Atoi(key); err == nil {
			return t.Elem()
		}
		return nil
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			name, inline := yamlTag(f)
			if inline {
				if ft := fieldType(f.Type, key); ft != nil {
					return ft
				}
				continue
			}
			if name == key {
				return f.Type
			}
		}
	}
	return nil
}

// yamlKeys lists the YAML keys of struct type t, those of inlined structs
// in their place.
func yamlKeys(t reflect.Type) []string {
	var keys []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, inline := yamlTag(f)
		switch {
		case inline && f.Type.Kind() == reflect.Struct:
			keys = append(keys, yamlKeys(f.Type)...)
		case name != "":
			keys = append(keys, name)
		}
	}
	return keys
}

// yamlTag returns the key a struct field decodes from ("" for none: an
// unexported field or one tagged "-") and whether it is inlined.
func yamlTag(f reflect.StructField) (name string, inline bool) {
	if !f.IsExported() {
		return "", false
	}
	tag := f.Tag.Get("yaml")
	name, opts, _ := strings.Cut(tag, ",")
	if name == "-" {
		return "", false
	}
	if strings.Contains(","+opts+",", ",inline,") {
		return "", true
	}
	if name == "" {
		name = strings.ToLower(f.Name)
	}
	return name, false
}

// quotes reports whether a value as the YAML library quotes it in a
// message (empty for a list or mapping; longer values cut to their first
// seven characters and "...") is the scalar text.
func quotes(quoted, text string) bool {
	if quoted == "" {
		return true
	}
	if cut, ok := strings.CutSuffix(quoted, "..."); ok && len(text) > len(quoted) {
		return strings.HasPrefix(text, cut)
	}
	return quoted == text
}

// yamlKind names a YAML tag's kind of value.
func yamlKind(tag string) string {
	switch tag {
	case "seq":
		return "list"
	case "map":
		return "mapping"
	case "str":
		return "string"
	case "int":
		return "whole number"
	case "float":
		return "number"
	case "bool":
		return "true or false"
	}
	return tag
}

// goKind says what a Go type the scenario decodes into takes.
func goKind(goType string) string {
	t := strings.TrimLeft(goType, "*")
	switch {
	case strings.HasPrefix(t, "[]"):
		return "a list"
	case strings.HasPrefix(t, "map["):
		return "a mapping"
	case strings.HasPrefix(t, "uint"):
		return "a whole number of 0 or more"
	case strings.HasPrefix(t, "int"):
		return "a whole number"
	case strings.HasPrefix(t, "float"):
		return "a number"
	case t == "bool":
		return "true or false"
	case t == "string":
		return "a string"
	case strings.Contains(t, "."):
		return "a mapping" // one of the scenario's structs
	}
	return "a " + t
}

// checkUTF8 finds the first byte of a scenario's text that is not UTF-8,
// with its line, which the YAML library's "invalid leading UTF-8 octet"
// leaves out. Text that starts with a UTF-16 byte order mark is the
// library's to read.
func checkUTF8(data []byte) *textError {
	if bytes.HasPrefix(data, []byte{0xfe, 0xff}) || bytes.HasPrefix(data, []byte{0xff, 0xfe}) {
		return nil
	}
	line, col := 1, 1
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return &textError{line: line, msg: fmt.Sprintf("byte 0x%02x, character %d of the line, is not UTF-8: a scenario is UTF-8 text", data[i], col)}
		}
		if r == '\n' {
			line, col = line+1, 0
		}
		i += size
		col++
	}
	return nil
}
