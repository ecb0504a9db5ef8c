package explore

import (
	"crypto/sha256"
	"encoding/hex"
	"os"

	"github.com/fabricmodel/fabricmodel/fabric"
)

// Inputs describes what a point of the scenario evaluator reads, by
// content: the base scenario's text (the file's, or the embedded default
// scenario's) and, for a trace workload, the trace file's bytes (the
// file the point's scenario reads, as its run resolves it). So a
// point is evaluated again when its scenario file or trace is edited, or
// when the sweep moves beside another file of the same name.
func (e scenarioEvaluator) Inputs(params []Assignment) string {
	name, data, file, err := e.source(params)
	text := "scenario " + digest(data, err) + "\n"
	if err != nil {
		return text
	}
	s, err := fabric.ParseScenarioWith(name, data, settings(params))
	if err != nil {
		return text
	}
	s.Dir = e.traceDir(file)
	if trace := s.TraceFile(); trace != "" {
		b, err := os.ReadFile(trace)
		text += "trace " + digest(b, err) + "\n"
	}
	return text
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
