package yamlfile

import (
	"strings"

	"go.yaml.in/yaml/v3"
)

// Lookup returns the value node of the key at a dotted path of mapping
// keys ("switch.ecn.pmax") in a YAML document, or nil when the document
// has no such key. Aliases on the way are followed to what they stand
// for, as the decoder does.
func Lookup(root *yaml.Node, path string) *yaml.Node {
	n := root
	if n != nil && n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	for _, k := range strings.Split(path, ".") {
		n = unalias(n)
		if n == nil || n.Kind != yaml.MappingNode {
			return nil
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == k {
				next = n.Content[i+1]
				break
			}
		}
		n = next
	}
	return unalias(n)
}

// unalias is the node an alias stands for, or n itself.
func unalias(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}
