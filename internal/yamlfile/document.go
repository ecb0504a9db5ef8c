package yamlfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"go.yaml.in/yaml/v3"
)

// ErrEmpty is the error (wrapped) of Document for text with no YAML
// document: an empty file or one of only comments.
var ErrEmpty = errors.New("the file is empty or only comments")

// Document reads the one YAML document of a file's text: UTF-8 (a byte
// that is not is an error at its line), and no second document after it,
// which a reader would otherwise drop without a word. Text with no
// document gives an error wrapping ErrEmpty: "no scenario: the file is
// empty or only comments". The node returned is the document, which
// holds one node (a null scalar for a bare "---").
func (k Kind) Document(data []byte) (*yaml.Node, error) {
	if err := k.checkUTF8(data); err != nil {
		return nil, err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	root := new(yaml.Node)
	if err := dec.Decode(root); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, &Error{Err: fmt.Errorf("no %s: %w", k.Name, ErrEmpty)}
		}
		return nil, k.libraryErrors(err, nil, nil)
	}
	var second yaml.Node
	switch err := dec.Decode(&second); {
	case err == nil:
		return nil, AtLine(max(second.Line, 1),
			fmt.Errorf("a second YAML document: a %s file holds %s (write each in a file of its own)", k.Name, k.holds()))
	case !errors.Is(err, io.EOF):
		return nil, k.libraryErrors(err, nil, nil)
	}
	return root, nil
}
