package fabric

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fabricmodel/fabricmodel/internal/yamlfile"
	"go.yaml.in/yaml/v3"
)

// workloadKeys lists, for each workload kind, the workload keys it reads
// besides kind; the others would be ignored silently.
var workloadKeys = map[string][]string{
	"incast":         {"bytes", "senders", "receiver", "start_us", "op"},
	"permutation":    {"bytes", "ranks", "start_us", "op"},
	"alltoall":       {"bytes", "ranks", "start_us", "op"},
	"ring_allreduce": {"bytes", "ranks", "start_us", "op"},
	"hd_allreduce":   {"bytes", "ranks", "start_us", "op"},
	"background":     {"ranks", "load", "size_cdf", "duration_us", "start_us", "op"},
	"csv":            {"file"},
}

// workloadKeyErrors finds the keys a scenario's workload sets that its
// kind does not read (senders on a permutation, file on an incast), at
// their lines. A kind it does not know is Validate's to report.
func workloadKeyErrors(root *yaml.Node, kind string) []textError {
	keys, ok := workloadKeys[kind]
	if !ok || root == nil || root.Kind != yaml.DocumentNode || len(root.Content) == 0 {
		return nil
	}
	w := yamlfile.Lookup(root, "workload")
	if w == nil || w.Kind != yaml.MappingNode {
		return nil
	}
	var errs []textError
	for i := 0; i+1 < len(w.Content); i += 2 {
		k := w.Content[i]
		if k.Value != "kind" && !slices.Contains(keys, k.Value) {
			msg := fmt.Sprintf("workload.%s: not a key of kind %s, which takes kind, %s", k.Value, kind, strings.Join(keys, ", "))
			if k.Value == "op" && kind == "csv" {
				msg += "; a trace names each flow's operation in its op column"
			}
			errs = append(errs, textError{line: k.Line, msg: msg})
		}
	}
	return errs
}
