package fabric

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/nic400g"
	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/switchasic"
)

// attachNIC builds NIC id from cfg on port of sw: its PHY matches the
// port's (lanes, cable, FEC), the switch receives it as the switch is
// configured to (cut-through), and the NIC receives store-and-forward (it
// checks the ICRC before it commits data, FACTS 6.2). The NIC sends its
// frames to the port's MAC, and the port rewrites the frames for it to
// the NIC's.
func attachNIC(e *rtlmodel.Engine, pool *packet.DescPool, sw *switchasic.Switch, port int, id uint32, cfg nic400g.Config) (*nic400g.NIC, error) {
	cfg.ID = id
	cfg.GatewayMAC = sw.PortMAC(port)
	wire := sw.NeighbourWire(port)
	wire.Seed = cfg.Seed
	cfg.Wire = wire
	nc, err := nic400g.New(e, fmt.Sprintf("nic%d", id), cfg, pool)
	if err != nil {
		return nil, err
	}
	rx, err := sw.AttachRx(port, nc.Phy())
	if err != nil {
		return nil, err
	}
	tx, err := sw.AttachTx(port, nc.Handle())
	if err != nil {
		return nil, err
	}
	if err := nc.ConnectWire(rx, tx); err != nil {
		return nil, err
	}
	sw.SetNeighbourMAC(port, nc.MAC())
	sw.TxPhy(port).Wire().SetCutThrough(0)
	return nc, nil
}

// route points destination dst of sw at the ports given, as one ECMP group.
func route(sw *switchasic.Switch, dst uint32, ports []int) error {
	g, err := sw.Forwarding().AddGroup(ports)
	if err != nil {
		return err
	}
	return sw.Forwarding().SetRoute(dst, g)
}
