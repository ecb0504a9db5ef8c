package explore

import (
	"strings"
)

// Assignment is one parameter set to one value, the value written as the
// evaluator's parser reads it.
type Assignment struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// canonical writes assignments one per line, name=value, in their order;
// point ids and seeds are hashes of it.
func canonical(as []Assignment) string {
	var b strings.Builder
	for _, a := range as {
		b.WriteString(a.Name)
		b.WriteByte('=')
		b.WriteString(a.Value)
		b.WriteByte('\n')
	}
	return b.String()
}

// lookup returns the value of name in as.
func lookup(as []Assignment, name string) (string, bool) {
	for _, a := range as {
		if a.Name == name {
			return a.Value, true
		}
	}
	return "", false
}
