package yamlfile

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

type testFile struct {
	Name   string         `yaml:"name"`
	Count  uint64         `yaml:"count"`
	Items  []testItem     `yaml:"items"`
	Inner  *testInner     `yaml:"inner"`
	Tags   map[string]int `yaml:"tags"`
	Free   yaml.Node      `yaml:"free"`
	hidden int
}

type testItem struct {
	Key   string  `yaml:"key"`
	Ratio float64 `yaml:"ratio"`
}

type testInner struct {
	testShared `yaml:",inline"`
	Deep       bool `yaml:"deep"`
	Skipped    int  `yaml:"-"`
}

type testShared struct {
	Low  int `yaml:"low"`
	High int `yaml:"high"`
}

// decode reads text as a testFile and locates its errors.
func decode(text string) error {
	root, err := thing.Document([]byte(text))
	if err != nil {
		return Locate("t.yaml", err)
	}
	var f testFile
	return Locate("t.yaml", Decode(thing, []byte(text), root, &f))
}

func TestDecodeSaysErrorsInKeyTerms(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"unknown key at the top", "name: x\ncolour: red\n",
			"t.yaml:2: colour: unknown key; a thing takes name, count, items, inner, tags, free"},
		{"unknown key in a list item", "items:\n  - {key: a, ratoi: 1}\n",
			"t.yaml:2: items.0.ratoi: unknown key; items.0 takes key, ratio"},
		{"unknown key beside inlined ones", "inner:\n  low: 1\n  hihg: 2\n",
			"t.yaml:3: inner.hihg: unknown key; inner takes low, high, deep"},
		{"wrong kind", "count: -5\n", "t.yaml:1: count: -5 is not a whole number of 0 or more"},
		{"list for a mapping", "inner: [1]\n", "t.yaml:1: inner: a list is not a mapping"},
		{"mapping for a list", "items: {a: 1}\n", "t.yaml:1: items: a mapping is not a list"},
		{"list for a map", "tags: [1]\n", "t.yaml:1: tags: a list is not a mapping"},
		{"long value", "items:\n  - {ratio: abcdefghijkl}\n", "t.yaml:2: items.0.ratio: abcdefg... is not a number"},
		{"set twice", "name: x\nname: y\n", "t.yaml:2: name: set twice (first at line 1)"},
		{"two at once", "count: x\nbogus: 1\n",
			"t.yaml:1: count: x is not a whole number of 0 or more\nt.yaml:2: bogus: unknown key; a thing takes name, count, items, inner, tags, free"},
	} {
		t.Run(c.name, func(t *testing.T) {
			require.EqualError(t, decode(c.text), c.want)
		})
	}
	require.NoError(t, decode("name: x\nfree: {anything: [1, 2]}\ntags: {a: 1}\ninner: {low: 1, deep: true}\n"))
}

func TestKeysAt(t *testing.T) {
	top := reflectTestFile()
	require.Equal(t, []string{"low", "high", "deep"}, keysAt(top, "inner"))
	require.Equal(t, []string{"key", "ratio"}, keysAt(top, "items.3"))
	require.Nil(t, keysAt(top, "free"), "a yaml.Node takes any keys")
	require.Nil(t, keysAt(top, "tags"), "a map takes any keys")
	require.Nil(t, keysAt(top, "nope"))
	require.Nil(t, keysAt(nil, ""))
}

func TestWanted(t *testing.T) {
	for goType, want := range map[string]string{
		"uint64": "a whole number of 0 or more", "int": "a whole number", "*float64": "a number",
		"bool": "true or false", "string": "a string", "[]fabric.X": "a list",
		"map[string]int": "a mapping", "fabric.X": "a mapping",
	} {
		require.Equal(t, want, Wanted(goType), goType)
	}
}

func TestKeyLine(t *testing.T) {
	var root yaml.Node
	require.NoError(t, yaml.Unmarshal([]byte("a:\n  b: 1\n  c:\n    - x\n    - {d: 2}\ne: 3\n"), &root))
	for path, want := range map[string]int{
		"a": 1, "a.b": 2, "a.c": 3, "a.c.0": 4, "a.c.1": 5, "a.c.1.d": 5, "e": 6,
		"a.zz": 1, "a.c.7": 3, "zz": 0, "e.f": 6,
	} {
		require.Equal(t, want, KeyLine(&root, path), path)
	}
	require.Equal(t, 0, KeyLine(nil, "a"))
	// DeepestKey says how much of the path the document has
	for path, want := range map[string][2]int{
		"a.c.1.d": {5, 4}, "a.zz": {1, 1}, "a.c.7": {3, 2}, "zz": {0, 0}, "e.f": {6, 1},
	} {
		line, depth := DeepestKey(&root, path)
		require.Equal(t, want, [2]int{line, depth}, path)
	}
}

func reflectTestFile() reflect.Type { return reflect.TypeFor[testFile]() }
