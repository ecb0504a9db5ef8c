package fabric

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// A degraded uplink names a switch, a port and a lane count the fabric
// has: failing every lane (a link down, not modelled) was silently a
// healthy link, and a negative count made the port faster than its
// lanes, past the lookahead; each is reported at the key's line.
func TestDegradedUplinkIsChecked(t *testing.T) {
	const topo = "name: x\ntopology:\n  kind: leafspine\n  leaves: 2\n  spines: 1\n  hosts_per_leaf: 2\n%s  degraded_uplink: %q\n" + scenarioWorkload
	for _, c := range []struct {
		mode, value, want string
	}{
		{"", "0/2/4", `degraded_uplink "0/2/4": lanes 4: 1 to 3 of a 128x400G port's 4 lanes can fail`},
		{"", "0/2/5", "lanes 5: 1 to 3"},
		{"", "0/2/-4", "lanes -4: 1 to 3"},
		{"", "0/2/0", "lanes 0: 1 to 3"},
		{"  port_mode: 64x800G\n", "0/2/8", "lanes 8: 1 to 7 of a 64x800G port's 8 lanes"},
		{"  port_mode: 512x100G\n", "0/2/1", "a 512x100G port has a single lane"},
		{"", "3/0/2", "switch 3: the fabric has switches 0 to 2"},
		{"", "-1/0/2", "switch -1: the fabric has switches 0 to 2"},
		{"", "2/2/2", "port 2: switch 2 (spine0) has ports 0 to 1"},
		{"", "0/-1/2", "port -1: switch 0 (leaf0) has ports 0 to 2"},
		{"", "0/x/2", `port "x" is not a whole number`},
		{"", "0/2", "want switch/port/lanes"},
	} {
		mode := 0
		if c.mode != "" {
			mode = 1
		}
		_, err := ParseScenario("s.yaml", []byte(fmt.Sprintf(topo, c.mode, c.value)))
		require.ErrorContains(t, err, fmt.Sprintf("s.yaml:%d: topology.degraded_uplink ", 7+mode), c.value)
		require.ErrorContains(t, err, c.want, c.value)
	}
	for _, ok := range []string{"0/2/1", "0/2/3", "2/1/2"} {
		s, err := ParseScenario("s.yaml", []byte(fmt.Sprintf(topo, "", ok)))
		require.NoError(t, err, ok)
		_, err = NewRun(s)
		require.NoError(t, err, ok)
	}
}

// A scenario built in code is checked when its run is built.
func TestDegradedUplinkCheckedAtBuild(t *testing.T) {
	s, err := DefaultScenario()
	require.NoError(t, err)
	s.Topology.DegradedUplink = "0/8/4"
	_, err = NewRun(s)
	require.ErrorContains(t, err, `topology.degraded_uplink "0/8/4": lanes 4: 1 to 3`)
}
