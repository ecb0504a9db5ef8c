package fabric

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// HPCC is refused where a flow's packets may take different paths, at the
// key that spreads them, and taken where each flow keeps one path.
func TestHPCCNeedsOnePathPerFlow(t *testing.T) {
	const head = "name: h\ntopology: {kind: fattree, k: 4}\nworkload: {kind: permutation, bytes: 65536}\n"
	for _, c := range []struct{ lb, paths, want string }{
		{"perflow", "spray", "s.yaml:5: nic.paths spray with nic.cc hpcc"},
		{"spray", "pathaware", "s.yaml:5: nic.paths pathaware with nic.cc hpcc"},
		{"roundrobin", "fixed", "s.yaml:4: switch.lb roundrobin with nic.cc hpcc"},
		{"random", "fixed", "s.yaml:4: switch.lb random with nic.cc hpcc"},
		{"perflow", "fixed", ""},
		{"spray", "fixed", ""},
		{"dlb", "fixed", "s.yaml:4: switch.lb dlb with nic.cc hpcc"},
	} {
		src := head + "switch: {lb: " + c.lb + "}\nnic: {cc: hpcc, paths: " + c.paths + "}\n"
		_, err := ParseScenario("s.yaml", []byte(src))
		if c.want == "" {
			require.NoError(t, err, "lb %s, paths %s", c.lb, c.paths)
			continue
		}
		require.ErrorContains(t, err, c.want)
		require.ErrorContains(t, err, "needs each flow on one path")
	}
	// other congestion controls spray as they like
	_, err := ParseScenario("s.yaml", []byte(head+"switch: {lb: random}\nnic: {cc: dcqcn, paths: spray}\n"))
	require.NoError(t, err)
}
