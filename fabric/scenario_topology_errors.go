package fabric

import (
	"errors"
	"fmt"
)

// topologyFaultError is a fault of a topology, of one of its keys or of
// the whole (key ""): TopologyConfig.Validate's errors for the Go API read
// "fabric: topology leaves 0: it must be ...", and a scenario names the
// key by its path instead (topologyError).
type topologyFaultError struct {
	key    string
	detail string // after the key: " 0: it must be ...", or the whole text when key is ""
}

func (e *topologyFaultError) Error() string {
	if e.key == "" {
		return "fabric: topology " + e.detail
	}
	return "fabric: topology " + e.key + e.detail
}

// topologyFault is a fault of the topology key (or, for "", of the
// topology as a whole), marked with the key for its line.
func topologyFault(key, format string, args ...any) error {
	f := &topologyFaultError{key: key, detail: fmt.Sprintf(format, args...)}
	if key == "" {
		return f
	}
	return keyed(key, f)
}

// topologyError says a fault of the scenario's topology in the
// scenario's keys, at the key's line: "topology.leaves 0: it must be
// ..." for one about a key, "topology: ..." for one about the whole.
func topologyError(err error) error {
	var f *topologyFaultError
	switch {
	case errors.As(err, &f) && f.key != "":
		return keyedUnder("topology", keyed(f.key, fmt.Errorf("topology.%s%s", f.key, f.detail)))
	case errors.As(err, &f):
		return keyedUnder("topology", fmt.Errorf("topology: %s", f.detail))
	}
	return keyedUnder("topology", fmt.Errorf("topology: %w", err))
}
