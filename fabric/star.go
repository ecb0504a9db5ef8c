package fabric

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/nic400g"
	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/switchasic"
)

// Star is NICs on the ports of one switch.
type Star struct {
	Engine *rtlmodel.Engine
	Switch *switchasic.Switch
	NICs   []*nic400g.NIC
	Pool   *packet.DescPool
}

// NewStar builds n NICs on ports 0..n-1 of a switch built from sw; nic
// gives endpoint i's configuration (its wire is set to match the switch
// port's; a NIC that runs HPCC with no Config.HPCCBaseRTT gets the star's
// largest unloaded round trip, as Build's NICs get their fabric's).
func NewStar(n int, sw switchasic.Config, nic func(i int) nic400g.Config, opts rtlmodel.Options) (*Star, error) {
	if n < 1 || n > sw.Plan.NumPorts() {
		return nil, fmt.Errorf("fabric: %d NICs on a switch of %d ports", n, sw.Plan.NumPorts())
	}
	s := &Star{Engine: rtlmodel.NewEngine(opts), Pool: &packet.DescPool{}}
	var err error
	if s.Switch, err = switchasic.New(s.Engine, "sw", sw, s.Pool); err != nil {
		return nil, err
	}
	nic = withHPCCBaseRTT(s.longestPath(n), n > 1, nic)
	for i := 0; i < n; i++ {
		nc, err := attachNIC(s.Engine, s.Pool, s.Switch, i, uint32(i), nic(i))
		if err != nil {
			return nil, err
		}
		if err := route(s.Switch, uint32(i), []int{i}); err != nil {
			return nil, err
		}
		s.NICs = append(s.NICs, nc)
	}
	return s, nil
}

// longestPath is the star's path for roundTripBudget: through its switch,
// in and out by the longest cable of ports 0..n-1.
func (s *Star) longestPath(n int) rttPath {
	var cable rtlmodel.Time
	for i := 0; i < n; i++ {
		cable = max(cable, s.Switch.TxPhy(i).Wire().Propagation())
	}
	return rttPath{hostCable: cable, nicWire: s.Switch.NeighbourWire(0),
		hops: []rttHop{{sw: s.Switch, name: "sw", in: 0, cable: cable}}}
}
