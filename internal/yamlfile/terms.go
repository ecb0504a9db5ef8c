package yamlfile

import (
	"fmt"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"
)

// terms says a YAML library message about the node at line in the file's
// terms: the dotted key it is about and what that key takes, instead of
// Go's type names; top is the Go type the file decodes into. A message it
// does not know stays as it is.
func (k Kind) terms(msg string, root *yaml.Node, line int, top reflect.Type) string {
	if g := yamlUnknown.FindStringSubmatch(msg); g != nil {
		path := nodePath(root, line, func(key, _ *yaml.Node) bool { return key.Value == g[1] })
		if path == "" {
			return fmt.Sprintf("%s: unknown key", g[1])
		}
		parent := parentPath(path)
		if keys := keysAt(top, parent); len(keys) > 0 {
			where := parent
			if where == "" {
				where = "a " + k.Name
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
		text := fmt.Sprintf("%s is not %s", got, Wanted(into))
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

// Wanted says what a value of the Go type named goType ("uint64",
// "[]fabric.CDFPoint", as the YAML library names types) is in a file's
// terms: "a whole number of 0 or more", "a list".
func Wanted(goType string) string {
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
		return "a mapping" // one of the file's structs
	}
	return "a " + t
}
