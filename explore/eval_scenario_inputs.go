package explore

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"

	"github.com/fabricmodel/fabricmodel/fabric"
	"go.yaml.in/yaml/v3"
)

// Inputs describes what a point of the scenario evaluator reads, by
// content: the base scenario's text (the file's, or the embedded default
// scenario's) and, for a trace workload, the trace file's bytes. So a
// point is evaluated again when its scenario file or trace is edited, or
// when the sweep moves beside another file of the same name.
func (e scenarioEvaluator) Inputs(params []Assignment) string {
	name, data, file, err := e.source(params)
	text := "scenario " + digest(data, err) + "\n"
	if err != nil {
		return text
	}
	doc, _, err := edit(name, data, params)
	if err != nil {
		return text
	}
	if trace, ok := tracePath(doc, file); ok {
		b, err := os.ReadFile(trace)
		text += "trace " + digest(b, err) + "\n"
	}
	return text
}

// tracePath is the trace file an edited scenario (doc, from file; "" for
// the embedded default) reads, resolved as fabric resolves workload.file
// (fabric.Scenario.TraceFile): relative to the scenario file's
// directory, or to the working directory for the default scenario. ok is
// false when its workload reads none.
func tracePath(doc *yaml.Node, file string) (path string, ok bool) {
	var s fabric.Scenario
	if doc.Decode(&s) != nil {
		return "", false
	}
	if file != "" {
		s.Dir = filepath.Dir(file)
	}
	path = s.TraceFile()
	return path, path != ""
}

// digest is the SHA-256 of an input's bytes, or "unreadable" when reading
// it failed (the point's check says why).
func digest(data []byte, err error) string {
	if err != nil {
		return "unreadable"
	}
	h := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(h[:])
}
