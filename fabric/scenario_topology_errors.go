package fabric

import (
	"errors"
	"fmt"
	"strings"
)

// topologyError says a fault of the scenario's topology in the
// scenario's keys, at the key's line: "topology.leaves 0: it must be
// ..." for one about a key, "topology: ..." otherwise, without the
// prefix ("fabric: topology leaves 0: ...") that TopologyConfig.Validate
// gives the Go API's callers.
func topologyError(err error) error {
	text := strings.TrimPrefix(strings.TrimPrefix(err.Error(), "fabric: "), "topology ")
	var ke *keyError
	if errors.As(err, &ke) && (strings.HasPrefix(text, ke.key+" ") || strings.HasPrefix(text, ke.key+":")) {
		return keyedUnder("topology", keyed(ke.key, fmt.Errorf("topology.%s", text)))
	}
	return keyedUnder("topology", fmt.Errorf("topology: %s", text))
}
