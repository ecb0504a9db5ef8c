package yamlfile

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

var thing = Kind{Name: "thing"}

func TestDocumentReadsOneDocument(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"empty", "", "no thing: the file is empty or only comments"},
		{"only comments", "# nothing yet\n", "no thing: the file is empty or only comments"},
		{"second document", "a: 1\n---\na: 2\n", "line 2: a second YAML document: a thing file holds one thing (write each in a file of its own)"},
		{"not UTF-8", "a: 1\n# caf\xe9\n", "line 2: byte 0xe9, character 6 of the line, is not UTF-8: a thing file is UTF-8 text"},
		{"syntax", "a: x\n  b: [\n", "line 2: mapping values are not allowed in this context"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := thing.Document([]byte(c.text))
			require.EqualError(t, Locate("", err), c.want)
		})
	}
	_, err := thing.Document(nil)
	require.ErrorIs(t, err, ErrEmpty)
	_, err = Kind{Name: "list", Holds: "one mapping of name: value"}.Document([]byte("a: 1\n---\n"))
	require.ErrorContains(t, err, "a list file holds one mapping of name: value")
	root, err := thing.Document([]byte("a: 1\n"))
	require.NoError(t, err)
	require.Len(t, root.Content, 1)
}

func TestLocateNamesFileAndLine(t *testing.T) {
	e := AtLine(3, errors.New("bad"))
	require.EqualError(t, Locate("f.yaml", e), "f.yaml:3: bad")
	require.EqualError(t, Locate("", e), "line 3: bad")
	require.EqualError(t, Locate("f.yaml", errors.New("bad")), "f.yaml: bad")
	require.EqualError(t, Locate("f.yaml", errors.Join(e, AtLine(5, errors.New("worse")))), "f.yaml:3: bad\nf.yaml:5: worse")
	require.NoError(t, Locate("f.yaml", nil))
	require.NoError(t, AtLine(2, nil))

	errs := Errors(errors.Join(e, errors.New("no line")))
	require.Len(t, errs, 2)
	require.Equal(t, 3, errs[0].Line)
	require.Equal(t, 0, errs[1].Line)
	require.EqualError(t, errs[1], "no line")
}
