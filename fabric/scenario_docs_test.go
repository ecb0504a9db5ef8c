package fabric

import (
	"path/filepath"
	"testing"
)

// TestDocumentedScenariosParse loads every scenario file the docs run
// (docs/scenarios) with the strict decoder and builds its flows, so a key
// renamed in the code cannot leave a documented command broken.
func TestDocumentedScenariosParse(t *testing.T) {
	files, err := filepath.Glob("../docs/scenarios/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 10 {
		t.Fatalf("found %d scenario files under docs/scenarios, want at least 10", len(files))
	}
	for _, f := range files {
		s, err := LoadScenario(f)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if _, err := s.flows(s.Topology.TopologyConfig); err != nil {
			t.Errorf("%s: workload: %v", f, err)
		}
	}
}
