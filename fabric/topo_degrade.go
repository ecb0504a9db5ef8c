package fabric

import (
	"strconv"
	"strings"
)

// degradedUplink is topology.degraded_uplink read: lanes of the transmit
// side of port of switch sw (its index in Cluster.Switches()) fail at the
// start.
type degradedUplink struct{ sw, port, lanes int }

// validate checks the topology and its degraded uplink; an error's key
// is relative to topology.
func (t ScenarioTopology) validate() error {
	if err := t.TopologyConfig.Validate(); err != nil {
		return err
	}
	_, err := t.degradedUplink()
	return err
}

// degradedUplink reads DegradedUplink ("switch/port/lanes", nil when
// unset) for the topology, which must be valid: the switch is one of the
// fabric's (leaves, then spines, then cores), the port one of that
// switch's, and from 1 to all but one of the port's lanes fail. A port
// keeps running on the lanes left (serdes.LaneGroup.Degraded); with
// every lane failed the link would be down, which the wire does not
// model, so that is refused rather than ignored.
func (t ScenarioTopology) degradedUplink() (*degradedUplink, error) {
	d := t.DegradedUplink
	if d == "" {
		return nil, nil
	}
	bad := func(format string, args ...any) error {
		return topologyFault("degraded_uplink", " %q: "+format, append([]any{d}, args...)...)
	}
	parts := strings.Split(d, "/")
	if len(parts) != 3 {
		return nil, bad("want switch/port/lanes")
	}
	var v [3]int
	for i, p := range parts {
		x, err := strconv.Atoi(p)
		if err != nil {
			return nil, bad("%s %q is not a whole number", [3]string{"switch", "port", "lanes"}[i], p)
		}
		v[i] = x
	}
	u := &degradedUplink{sw: v[0], port: v[1], lanes: v[2]}
	s := newShape(t.TopologyConfig)
	if n := s.numSwitches(); u.sw < 0 || u.sw >= n {
		return nil, bad("switch %d: the fabric has switches 0 to %d (leaves, then spines, then cores)", u.sw, n-1)
	}
	if n := s.ports(u.sw); u.port < 0 || u.port >= n {
		return nil, bad("port %d: switch %d (%s) has ports 0 to %d", u.port, u.sw, s.name(u.sw), n-1)
	}
	m, err := t.portMode()
	if err != nil {
		return nil, err
	}
	if m.Lanes < 2 {
		return nil, bad("a %s port has a single lane, which cannot fail without taking the link down (not modelled)", m.Name)
	}
	if u.lanes < 1 || u.lanes >= m.Lanes {
		return nil, bad("lanes %d: 1 to %d of a %s port's %d lanes can fail (all of them would take the link down, which is not modelled)",
			u.lanes, m.Lanes-1, m.Name, m.Lanes)
	}
	return u, nil
}

// degrade applies topology.degraded_uplink to the built fabric.
func (s *Scenario) degrade(c *Cluster) error {
	u, err := s.Topology.degradedUplink()
	if err != nil {
		return topologyError(err)
	}
	if u == nil {
		return nil
	}
	return keyed("topology.degraded_uplink", c.Switches()[u.sw].TxPhy(u.port).Wire().DegradeAt(0, u.lanes))
}
