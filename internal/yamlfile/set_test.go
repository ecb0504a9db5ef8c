package yamlfile

import (
	"testing"

	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

// Set replaces a key's value, adds a key and the mappings on its way, and
// refuses a path through a value that is no mapping and a value that is
// no YAML or empty.
func TestSetWritesAtADottedPath(t *testing.T) {
	var doc yaml.Node
	require.NoError(t, yaml.Unmarshal([]byte("a: 1\nb:\n  c: x\n"), &doc))
	root := doc.Content[0]
	require.NoError(t, Set(root, "a", "2"))
	require.NoError(t, Set(root, "b.c", "[1, 2]"))
	require.NoError(t, Set(root, "d.e.f", "{g: h}"))
	out, err := yaml.Marshal(root)
	require.NoError(t, err)
	require.Equal(t, "a: 2\nb:\n    c: [1, 2]\nd:\n    e:\n        f: {g: h}\n", string(out))

	require.EqualError(t, Set(root, "a.x", "1"), "a is not a mapping")
	require.EqualError(t, Set(root, "b..c", "1"), "empty key in the path")
	require.ErrorContains(t, Set(root, "a", "[1"), `value "[1": `)
	require.EqualError(t, Set(root, "a", " "), `value " ": empty`)
}
