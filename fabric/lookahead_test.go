package fabric

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// Every wire between devices declares as its lookahead what a frame
// crosses from the edge its sender's MAC sends it to the edge its
// receiver sees it (serdes.PhyLink.Connect), so that cabled devices run
// that far apart instead of the wire's least latency alone (105.6 ns, the
// engine's lookahead, which coupled hosts keep). On the default devices
// (the budget's stages): switch to switch, the traffic manager and egress
// pipeline (76.8 ns), the wire (105.6 ns) and the ingress pipeline (64
// ns), 246.4 ns; switch to NIC, the NIC's receive pipeline (100 ns)
// instead of the ingress one, 282.4 ns; NIC to switch, the NIC's transmit
// pipeline (100 ns), the wire and the ingress pipeline, 269.6 ns.
func TestWiresDeclareTheirPipelinesAsLookahead(t *testing.T) {
	s, err := DefaultScenario()
	require.NoError(t, err)
	r, err := NewRun(s)
	require.NoError(t, err)
	require.Equal(t, 105600*rtlmodel.Picosecond, r.Cluster.Engine.Lookahead())
	fromSwitches := map[rtlmodel.Time]int{}
	for _, sw := range r.Cluster.Switches() {
		for i := range sw.Ports() {
			fromSwitches[sw.TxPhy(i).Out().Lookahead()]++
		}
	}
	fromNICs := map[rtlmodel.Time]int{}
	for _, n := range r.Cluster.NICs {
		fromNICs[n.Phy().Out().Lookahead()]++
	}
	hosts := len(r.Cluster.NICs)
	require.Equal(t, map[rtlmodel.Time]int{246400: uplinks(r.Cluster), 282400: hosts}, fromSwitches)
	require.Equal(t, map[rtlmodel.Time]int{269600: hosts}, fromNICs)
}

// uplinks counts the switch ports cabled to other switches.
func uplinks(c *Cluster) int {
	n := 0
	for _, sw := range c.Switches() {
		n += len(sw.Ports())
	}
	return n - len(c.NICs)
}
