package yamlfile

import (
	"bytes"
	"errors"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Decode decodes a file's text strictly into v: a key v's type does not
// have is an error, as is a key set twice or a value of the wrong kind.
// root is the text's document, read by Document, which gives the keys
// the errors are about; each error is at its line, several joined.
func Decode[T any](k Kind, data []byte, root *yaml.Node, v *T) error {
	strict := yaml.NewDecoder(bytes.NewReader(data))
	strict.KnownFields(true)
	if err := strict.Decode(v); err != nil {
		return k.libraryErrors(err, root, reflect.TypeFor[T]())
	}
	return nil
}

var (
	yamlLine      = regexp.MustCompile(`^line (\d+): (.*)$`)
	yamlUnknown   = regexp.MustCompile(`^field (.+) not found in type \S+$`)
	yamlType      = regexp.MustCompile("^cannot unmarshal !!(\\w+)(?: `(.*)`)? into (.+)$")
	yamlDuplicate = regexp.MustCompile(`^mapping key "(.*)" already defined at line (\d+)$`)
)

// libraryErrors rewrites a YAML library error about the file's text, each
// of its messages an *Error at its line. root, the document's tree when
// it parsed, gives the keys the messages are about, and top, the Go type
// the text decodes into (nil before decoding), the keys a mapping takes.
func (k Kind) libraryErrors(err error, root *yaml.Node, top reflect.Type) error {
	var msgs []string
	var te *yaml.TypeError
	if errors.As(err, &te) {
		msgs = te.Errors
	} else {
		msgs = []string{strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	errs := make([]error, 0, len(msgs))
	for _, m := range msgs {
		line := 0
		if g := yamlLine.FindStringSubmatch(m); g != nil {
			line, _ = strconv.Atoi(g[1])
			m = g[2]
		}
		errs = append(errs, AtLine(line, errors.New(k.terms(m, root, line, top))))
	}
	if len(errs) == 1 {
		return errs[0]
	}
	return errors.Join(errs...)
}
