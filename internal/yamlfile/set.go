package yamlfile

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Set replaces (or adds) the value at a dotted path of mapping keys
// ("switch.ecn.pmax") in the mapping root with value read as YAML, adding
// the mappings on the way that root lacks. A path through a key whose
// value is not a mapping is an error, as is a value that is no YAML or
// empty.
func Set(root *yaml.Node, path, value string) error {
	var v yaml.Node
	if err := yaml.Unmarshal([]byte(value), &v); err != nil {
		return fmt.Errorf("value %q: %w", value, err)
	}
	if len(v.Content) != 1 {
		return fmt.Errorf("value %q: empty", value)
	}
	keys := strings.Split(path, ".")
	n := root
	for i, k := range keys {
		if k == "" {
			return fmt.Errorf("empty key in the path")
		}
		if n.Kind != yaml.MappingNode {
			return fmt.Errorf("%s is not a mapping", strings.Join(keys[:i], "."))
		}
		var child *yaml.Node
		for j := 0; j+1 < len(n.Content); j += 2 {
			if n.Content[j].Value == k {
				child = n.Content[j+1]
			}
		}
		last := i == len(keys)-1
		if child == nil {
			child = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
			n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k}, child)
		}
		if last {
			*child = *v.Content[0]
		}
		n = child
	}
	return nil
}
