package explore

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// decodeSweep reads a sweep file's text: exactly one YAML document,
// decoded strictly into s, its tree kept in s.root for the lines of later
// errors. The YAML library's errors come back in the sweep's own terms,
// like a scenario file's, one per line: "line 4: bogus: unknown key; a
// sweep takes name, evaluator, ..." rather than "line 4: field bogus not
// found in type explore.Sweep".
func decodeSweep(s *Sweep, data []byte) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	root := new(yaml.Node)
	if err := dec.Decode(root); err != nil {
		if errors.Is(err, io.EOF) {
			return fmt.Errorf("empty sweep file")
		}
		return yamlErrors(err, nil)
	}
	var second yaml.Node
	switch err := dec.Decode(&second); {
	case err == nil:
		return atLine(max(second.Line, 1), fmt.Errorf("a second YAML document: a sweep file holds one sweep (write each in a file of its own)"))
	case !errors.Is(err, io.EOF):
		return yamlErrors(err, nil)
	}
	strict := yaml.NewDecoder(bytes.NewReader(data))
	strict.KnownFields(true)
	if err := strict.Decode(s); err != nil {
		return yamlErrors(err, root)
	}
	s.root = root
	return nil
}

var (
	yamlLine      = regexp.MustCompile(`^line (\d+): (.*)$`)
	yamlUnknown   = regexp.MustCompile(`^field (.+) not found in type \S+$`)
	yamlType      = regexp.MustCompile("^cannot unmarshal !!(\\w+)(?: `(.*)`)? into (.+)$")
	yamlDuplicate = regexp.MustCompile(`^mapping key "(.*)" already defined at line (\d+)$`)
)

// yamlErrors rewrites a YAML library error about the sweep text, each of
// its messages an error at its line. root, the document's tree when it
// parsed, gives the keys the messages are about.
func yamlErrors(err error, root *yaml.Node) error {
	var msgs []string
	var te *yaml.TypeError
	if errors.As(err, &te) {
		msgs = te.Errors
	} else {
		msgs = []string{strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	errs := make([]error, 0, len(msgs))
	for _, m := range msgs {
		line := 0
		if g := yamlLine.FindStringSubmatch(m); g != nil {
			line, _ = strconv.Atoi(g[1])
			m = g[2]
		}
		errs = append(errs, atLine(line, errors.New(sweepTerms(m, root, line))))
	}
	if len(errs) == 1 {
		return errs[0]
	}
	return errors.Join(errs...)
}

// sweepTerms says a YAML library message about the node at line in the
// sweep's terms: the dotted key it is about and what that key takes,
// instead of Go's type names. A message it does not know stays as it is.
func sweepTerms(msg string, root *yaml.Node, line int) string {
	if g := yamlUnknown.FindStringSubmatch(msg); g != nil {
		path := nodePath(root, line, func(key, _ *yaml.Node) bool { return key.Value == g[1] })
		if path == "" {
			path = g[1]
		}
		parent, where := "", "a sweep"
		if i := strings.LastIndexByte(path, '.'); i >= 0 {
			parent, where = path[:i], path[:i]
		}
		if keys := sweepKeys(parent); len(keys) > 0 {
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
		path := nodePath(root, line, func(_, v *yaml.Node) bool {
			return v.ShortTag() == "!!"+tag && (value == "" || v.Value == value || strings.HasPrefix(v.Value, strings.TrimSuffix(value, "...")))
		})
		got := "a " + tag
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

// nodePath returns the dotted key path ("parameters.1.steps") of the
// first key-value pair or list item, in document order, whose key or
// value is at line and matches: match gets the key node (an empty node for
// a list item) and the value node. "" when none does.
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

// sweepKeys lists the keys the mapping at the dotted path of a sweep file
// takes ("" for the top, "parameters.0" for a parameter), in the order
// the sweep's types declare them; nil when the path names no mapping of
// fixed keys (base takes any parameter name).
func sweepKeys(path string) []string {
	t := reflect.TypeFor[Sweep]()
	if path != "" {
		for _, k := range strings.Split(path, ".") {
			if t = keyType(t, k); t == nil {
				return nil
			}
		}
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || t == reflect.TypeFor[yaml.Node]() {
		return nil
	}
	var keys []string
	for i := 0; i < t.NumField(); i++ {
		if name := yamlKey(t.Field(i)); name != "" {
			keys = append(keys, name)
		}
	}
	return keys
}

// keyType follows one key (an index for a list) from type t; nil when t
// has no such key.
func keyType(t reflect.Type, key string) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Slice:
		if _, err := strconv.Atoi(key); err == nil {
			return t.Elem()
		}
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if yamlKey(t.Field(i)) == key {
				return t.Field(i).Type
			}
		}
	}
	return nil
}

// yamlKey is the key a struct field decodes from ("" for none).
func yamlKey(f reflect.StructField) string {
	if !f.IsExported() {
		return ""
	}
	name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	if name == "-" {
		return ""
	}
	if name == "" {
		name = strings.ToLower(f.Name)
	}
	return name
}

// goKind says what a Go type a sweep decodes into takes.
func goKind(goType string) string {
	t := strings.TrimLeft(goType, "*")
	switch {
	case strings.HasPrefix(t, "[]"):
		return "a list"
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
		return "a mapping" // one of the sweep's structs
	}
	return "a " + t
}
