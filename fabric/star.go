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
// port's).
func NewStar(n int, sw switchasic.Config, nic func(i int) nic400g.Config, opts rtlmodel.Options) (*Star, error) {
	if n < 1 || n > sw.Plan.NumPorts() {
		return nil, fmt.Errorf("fabric: %d NICs on a switch of %d ports", n, sw.Plan.NumPorts())
	}
	s := &Star{Engine: rtlmodel.NewEngine(opts), Pool: &packet.DescPool{}}
	var err error
	if s.Switch, err = switchasic.New(s.Engine, "sw", sw, s.Pool); err != nil {
		return nil, err
	}
	for i := 0; i < n; i++ {
		cfg := nic(i)
		cfg.ID = uint32(i)
		wire := s.Switch.NeighbourWire(i) // the switch receives as it is configured to
		wire.Seed = cfg.Seed
		cfg.Wire = wire
		nc, err := nic400g.New(s.Engine, fmt.Sprintf("nic%d", i), cfg, s.Pool)
		if err != nil {
			return nil, err
		}
		rx, err := s.Switch.AttachRx(i, nc.Phy())
		if err != nil {
			return nil, err
		}
		tx, err := s.Switch.AttachTx(i, nc.Handle())
		if err != nil {
			return nil, err
		}
		nc.ConnectWire(rx, tx)
		// the NIC receives store-and-forward: it checks the ICRC before it
		// commits data (FACTS 6.2)
		s.Switch.TxPhy(i).Wire().SetCutThrough(0)
		g, err := s.Switch.Forwarding().AddGroup([]int{i})
		if err != nil {
			return nil, err
		}
		if err := s.Switch.Forwarding().SetRoute(uint32(i), g); err != nil {
			return nil, err
		}
		s.NICs = append(s.NICs, nc)
	}
	return s, nil
}
