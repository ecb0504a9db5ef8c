package explore

import (
	"crypto/sha256"
	"encoding/hex"
	"os"

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
	if trace, ok := tracePath(doc, e.traceDir(file)); ok {
		b, err := os.ReadFile(trace)
		text += "trace " + digest(b, err) + "\n"
	}
	return text
}

// tracePath is the trace file an edited scenario (doc) reads, resolved
// as fabric resolves workload.file (fabric.Scenario.TraceFile) against
// dir (scenarioEvaluator.traceDir) when relative, as the point's run
// reads it. ok is false when its workload reads none.
func tracePath(doc *yaml.Node, dir string) (path string, ok bool) {
	var s fabric.Scenario
	if doc.Decode(&s) != nil {
		return "", false
	}
	s.Dir = dir
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
