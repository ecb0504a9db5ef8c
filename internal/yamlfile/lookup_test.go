package yamlfile

import (
	"testing"

	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

// Lookup follows a dotted path of keys, through aliases, to a value, and
// finds nothing where the document has no such key or the path crosses
// something other than a mapping.
func TestLookup(t *testing.T) {
	var doc yaml.Node
	require.NoError(t, yaml.Unmarshal([]byte("curve: &c {kmin: 1, pmax: 0.2}\nswitch:\n  ecn: *c\n  list: [1, 2]\n"), &doc))
	require.Equal(t, "0.2", Lookup(&doc, "switch.ecn.pmax").Value)
	require.Equal(t, yaml.MappingNode, Lookup(&doc, "switch.ecn").Kind, "the alias is followed")
	require.Nil(t, Lookup(&doc, "switch.ecn.kmax"))
	require.Nil(t, Lookup(&doc, "switch.list.0"), "a list is not a mapping of keys")
	require.Nil(t, Lookup(&doc, "nic"))
	require.Nil(t, Lookup(nil, "switch"))
}
