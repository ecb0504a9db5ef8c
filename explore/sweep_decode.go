package explore

import "github.com/fabricmodel/fabricmodel/internal/yamlfile"

// sweepFile is the kind of file a sweep is, as errors name it.
var sweepFile = yamlfile.Kind{Name: "sweep"}

// decodeSweep reads a sweep file's text: exactly one YAML document,
// decoded strictly into s, its tree kept in s.root for the lines of later
// errors. The YAML library's errors come back in the sweep's own terms,
// like a scenario file's, one per line: "line 4: bogus: unknown key; a
// sweep takes name, evaluator, ..." rather than "line 4: field bogus not
// found in type explore.Sweep".
func decodeSweep(s *Sweep, data []byte) error {
	root, err := sweepFile.Document(data)
	if err != nil {
		return err
	}
	if err := yamlfile.Decode(sweepFile, data, root, s); err != nil {
		return err
	}
	s.root = root
	return nil
}

// keyed marks err as about the key at a dotted path of the sweep file
// ("metrics.2", "design.kind"): the line of that key, or of the deepest
// key on the path the file has.
func (s *Sweep) keyed(path string, err error) error {
	return yamlfile.AtLine(yamlfile.KeyLine(s.root, path), err)
}
