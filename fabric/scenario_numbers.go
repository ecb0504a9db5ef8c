package fabric

import (
	"fmt"
	"math/big"
	"reflect"
	"strings"

	"github.com/fabricmodel/fabricmodel/internal/yamlfile"
	"go.yaml.in/yaml/v3"
)

// textError is a fault of a scenario's text that the YAML library would
// miss or report without its line (a number it would take as another),
// or one of package yamlfile: at line, its message in the scenario's
// terms.
type textError struct {
	line int
	msg  string
}

// numberErrors walks a scenario's YAML tree beside the scenario's types
// and finds the numbers the library would take wrongly: a number with a
// fraction or an exponent for a whole-number key (the library truncates
// leaves: 2.9 to 2), a whole number beyond the key's type (YAML reads
// seed: 18446744073709551616 as a float, which the library wraps), and a
// number in quotes (bytes: "65536"), a string the library refuses as if
// it were no number at all. Keys the types do not have are left to the
// strict decode that reports them.
func numberErrors(root *yaml.Node) []textError {
	if root == nil || root.Kind != yaml.DocumentNode || len(root.Content) == 0 {
		return nil
	}
	var errs []textError
	walkNumbers(root.Content[0], reflect.TypeFor[Scenario](), "", &errs)
	return errs
}

func walkNumbers(n *yaml.Node, t reflect.Type, path string, errs *[]textError) {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	join := func(k string) string {
		if path == "" {
			return k
		}
		return path + "." + k
	}
	switch {
	case n.Kind == yaml.MappingNode && t.Kind() == reflect.Struct:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i].Value
			if ft := yamlfile.KeyType(t, k); ft != nil {
				walkNumbers(n.Content[i+1], ft, join(k), errs)
			}
		}
	case n.Kind == yaml.SequenceNode && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array):
		for i, v := range n.Content {
			walkNumbers(v, t.Elem(), join(fmt.Sprint(i)), errs)
		}
	case n.Kind == yaml.ScalarNode:
		if msg := numberMistake(n, t); msg != "" {
			*errs = append(*errs, textError{line: n.Line, msg: path + ": " + msg})
		}
	}
}

// numberMistake says what is wrong with scalar n as a value of type t,
// "" when nothing is (or when the strict decode says it well enough).
func numberMistake(n *yaml.Node, t reflect.Type) string {
	whole := isWhole(t.Kind())
	if !whole && !isFloat(t.Kind()) {
		return ""
	}
	want := yamlfile.Wanted(t.String())
	if n.ShortTag() == "!!str" && (n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle)) != 0 {
		plain := yaml.Node{Kind: yaml.ScalarNode, Value: n.Value}
		if tag := plain.ShortTag(); tag == "!!int" || tag == "!!float" {
			return fmt.Sprintf("%q is a quoted string, and %s is wanted: write it without the quotes", n.Value, want)
		}
		return ""
	}
	if !whole || n.ShortTag() != "!!float" {
		return "" // the library checks the range of a !!int itself
	}
	text := strings.ReplaceAll(strings.TrimPrefix(n.Value, "+"), "_", "")
	if v, ok := new(big.Int).SetString(text, 10); ok {
		lo, hi := wholeRange(t)
		if v.Cmp(lo) < 0 || v.Cmp(hi) > 0 {
			return fmt.Sprintf("%s is out of range: %s to %s", n.Value, lo, hi)
		}
	}
	if f, ok := new(big.Float).SetString(text); ok && f.IsInt() {
		return fmt.Sprintf("%s is not %s: write it in digits, with no point or exponent", n.Value, want)
	}
	return fmt.Sprintf("%s is not %s", n.Value, want)
}

func isWhole(k reflect.Kind) bool {
	switch k {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return true
	}
	return false
}

func isFloat(k reflect.Kind) bool { return k == reflect.Float32 || k == reflect.Float64 }

// wholeRange is the least and the greatest value of integer type t.
func wholeRange(t reflect.Type) (lo, hi *big.Int) {
	bits := uint(t.Bits())
	one := big.NewInt(1)
	if t.Kind() >= reflect.Uint && t.Kind() <= reflect.Uint64 {
		return new(big.Int), new(big.Int).Sub(new(big.Int).Lsh(one, bits), one)
	}
	hi = new(big.Int).Sub(new(big.Int).Lsh(one, bits-1), one)
	return new(big.Int).Neg(new(big.Int).Add(hi, one)), hi
}
