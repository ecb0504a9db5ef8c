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

// A degraded uplink's utilisation is its traffic against the lanes it
// has left: the two hosts of leaf 0 write 1 MB each to a host of leaf 1
// through one spine, over an uplink with three of its four lanes down, which is busy
// for nearly the whole run and reads so; counted at the port's four
// lanes it read under a quarter.
func TestDegradedUplinkUtilisationCountsTheLanesLeft(t *testing.T) {
	r := completeScenario(t, "s.yaml", `name: x
topology: {kind: leafspine, leaves: 2, spines: 1, hosts_per_leaf: 2, degraded_uplink: "0/2/3"}
workload: {kind: incast, senders: 2, receiver: 3, bytes: 1048576}
`)
	res := r.Results()
	require.Equal(t, 2, res.Completed)
	// the utilisations are listed switch by switch, port by port, for
	// the ports that sent a frame: leaf 0's uplink is its third
	up := 0
	for p := range 2 {
		if f, _ := r.Cluster.Switches()[0].TxPhy(p).Wire().Frames(); f > 0 {
			up++
		}
	}
	require.Greater(t, res.LinkUtilization[up], 0.9)
	require.Equal(t, res.LinkUtilMax, res.LinkUtilization[up])
}
