package yamlfile

import (
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// KeyLine returns the line of the key at the dotted path in a YAML
// document (a number indexes a list: "workload.size_cdf.2"), or of the
// deepest key on that path the document has; 0 when it has none of them.
func KeyLine(root *yaml.Node, path string) int {
	line, _ := DeepestKey(root, path)
	return line
}

// DeepestKey is KeyLine with how many of the path's keys the document
// has, from the first: the path's own count when it has the key itself,
// 0 when it has none of them.
func DeepestKey(root *yaml.Node, path string) (line, depth int) {
	n := root
	if n != nil && n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	for _, k := range strings.Split(path, ".") {
		if i, err := strconv.Atoi(k); err == nil && n != nil && n.Kind == yaml.SequenceNode {
			if i < 0 || i >= len(n.Content) {
				break
			}
			n = n.Content[i]
			line = n.Line
			depth++
			continue
		}
		if n == nil || n.Kind != yaml.MappingNode {
			break
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == k {
				line, next = n.Content[i].Line, n.Content[i+1]
				break
			}
		}
		if next == nil {
			break
		}
		n = next
		depth++
	}
	return line, depth
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

// findNode is nodePath below node n, whose own path is path.
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
