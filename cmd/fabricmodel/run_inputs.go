package main

import (
	"fmt"
	"path/filepath"

	"github.com/fabricmodel/fabricmodel/fabric"
)

// runInput is a file a run reads, which none of its outputs may be.
type runInput struct {
	path string
	what string // what the file is, for the error: "the scenario file s.yaml"
}

// scenarioInputs are the files a run of the scenario sc, read from path
// ("" for the embedded default), reads: the scenario file and, for a
// workload of kind csv, its trace (fabric.Scenario.TraceFile).
func scenarioInputs(path string, sc *fabric.Scenario) []runInput {
	if path == "" {
		return nil
	}
	inputs := []runInput{{path: path, what: "the scenario file " + path}}
	if trace := sc.TraceFile(); trace != "" {
		inputs = append(inputs, runInput{path: trace, what: fmt.Sprintf("the trace file %s that %s reads (workload.file)", trace, path)})
	}
	return inputs
}

// notInputs refuses an output that is a file the run reads, naming the
// output's flag and the file it would overwrite.
func notInputs(outputs []output, inputs []runInput) error {
	for _, out := range outputs {
		for _, in := range inputs {
			if !sameOutput(out.path, in.path) {
				continue
			}
			if out.plotDir != "" {
				return fmt.Errorf("--plots %s: its plot %s would overwrite %s", out.plotDir, filepath.Base(out.path), in.what)
			}
			return fmt.Errorf("--%s %s: %s; the output would overwrite it", out.flag, out.path, in.what)
		}
	}
	return nil
}
