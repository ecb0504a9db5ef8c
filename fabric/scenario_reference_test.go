package fabric

import (
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// scenarioKeys lists the dotted paths of every key a scenario file may
// set, from the yaml tags of t's fields: a mapping is listed and so are
// its keys; a list is one key.
func scenarioKeys(t reflect.Type, prefix string) []string {
	var keys []string
	for i := range t.NumField() {
		f := t.Field(i)
		tag := strings.Split(f.Tag.Get("yaml"), ",")
		if !f.IsExported() || tag[0] == "-" {
			continue
		}
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if slices.Contains(tag[1:], "inline") {
			keys = append(keys, scenarioKeys(ft, prefix)...)
			continue
		}
		key := prefix + tag[0]
		keys = append(keys, key)
		if ft.Kind() == reflect.Struct {
			keys = append(keys, scenarioKeys(ft, key+".")...)
		}
	}
	return keys
}

// docs/scenario.md has a table row for every key a scenario may set, and
// none for a key the scenario types lack, so the reference cannot fall
// behind the reader; its example is a scenario that builds.
func TestScenarioReferenceNamesEveryKey(t *testing.T) {
	want := scenarioKeys(reflect.TypeFor[Scenario](), "")
	require.Contains(t, want, "switch.ecn.pmax")
	require.Contains(t, want, "topology.hosts_per_leaf", "the inline topology")
	doc, err := os.ReadFile("../docs/scenario.md")
	require.NoError(t, err)
	row := regexp.MustCompile("(?m)^\\| `([a-z0-9_.]+)` \\|")
	var got []string
	for _, m := range row.FindAllStringSubmatch(string(doc), -1) {
		require.NotContains(t, got, m[1], "a row twice")
		got = append(got, m[1])
	}
	slices.Sort(want)
	slices.Sort(got)
	require.Equal(t, want, got)

	examples := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(string(doc), -1)
	require.NotEmpty(t, examples)
	for _, ex := range examples {
		s, err := ParseScenario("docs/scenario.md", []byte(ex[1]))
		require.NoError(t, err)
		_, err = NewRun(s)
		require.NoError(t, err)
	}
}
