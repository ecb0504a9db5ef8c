package fabric

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/nic400g"
	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/pipeline"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/serdes"
	"github.com/fabricmodel/fabricmodel/switchasic"
)

// LatencyPath is the path a latency budget follows: NIC, switch, NIC as
// NewStar builds it, with the models' default host (PCIe Gen5 x16).
type LatencyPath struct {
	Switch switchasic.Config
	NIC    nic400g.Config // both NICs' timing (clock, pipelines, stack)
	PCIe   nic400g.PCIeConfig
	Host   nic400g.HostConfig
}

// DefaultLatencyPath is the default switch and NIC.
func DefaultLatencyPath() LatencyPath {
	return LatencyPath{Switch: switchasic.DefaultConfig(), NIC: nic400g.DefaultConfig(0),
		PCIe: nic400g.DefaultPCIeConfig(), Host: nic400g.DefaultHostConfig()}
}

// stackOf is the header stack of a first/only packet of the NIC's stack.
func stackOf(s nic400g.HeaderStack) packet.Stack {
	switch s {
	case nic400g.RoCEv2IPv6:
		st := packet.StackRoCEv2IPv6
		st.Header += packet.RETHLen
		return st
	case nic400g.LeanNative:
		st := packet.StackNativeIB
		st.Header += packet.RETHLen
		return st
	case nic400g.UET:
		return packet.StackUETStandard
	}
	return packet.StackRoCEv2IPv4First
}

// WriteBudget lists, stage by stage, how an inline RDMA WRITE of payload
// bytes posted by the CPU at time posted travels from the doorbell to the
// CQE visible at the responder, through one switch (ports 0 to 1), the
// way the cycle model moves it: the host model's PCIe stages, the NICs'
// pipelines and PHYs, the cables, the switch's own budget, and every wait
// for a clock edge at the time it happens. contextMiss adds the QP
// context read of a cold cache. A test runs the cycle model and finds the
// CQE visible at exactly posted + Total().
func WriteBudget(p LatencyPath, payload int, posted rtlmodel.Time, contextMiss bool) (pipeline.Budget, error) {
	e := rtlmodel.NewEngine(rtlmodel.Options{})
	sw, err := switchasic.New(e, "sw", p.Switch, &packet.DescPool{})
	if err != nil {
		return nil, err
	}
	nicDom, err := e.AddDomain("nic/core", p.NIC.ClockPeriod, 0)
	if err != nil {
		return nil, err
	}
	up, err := serdes.NewWire(sw.NeighbourWire(0))
	if err != nil {
		return nil, err
	}
	downCfg := sw.NeighbourWire(1)
	downCfg.CutThroughBytes = 0 // the NIC receives store-and-forward
	down, err := serdes.NewWire(downCfg)
	if err != nil {
		return nil, err
	}
	frame := stackOf(p.NIC.Stack).FrameBytes(payload)
	if p.NIC.Stack == nic400g.LeanNative {
		frame = stackOf(p.NIC.Stack).Header + payload + stackOf(p.NIC.Stack).Trailer + (-payload & 3)
	}

	var b pipeline.Budget
	t := posted
	add := func(s pipeline.StageBudget) {
		b = append(b, s)
		t += s.Time()
	}
	edge := func(name string, d *rtlmodel.Domain) {
		add(pipeline.TimeStage(name, d.FirstEdgeAtOrAfter(t)-t, "cycle alignment"))
	}
	txHost, err := nic400g.HostTxBudget(p.PCIe, p.Host, 2*p.Host.WQEBB, 0)
	if err != nil {
		return nil, err
	}
	for _, s := range txHost {
		add(s)
	}
	edge("NIC A: wait for the core clock edge", nicDom)
	if contextMiss {
		miss, err := nic400g.HostQPCMissLatency(p.PCIe, p.Host)
		if err != nil {
			return nil, err
		}
		add(pipeline.TimeStage("NIC A: QP context miss, PCIe read", miss, "nic400g.HostQPCMissLatency (FACTS 5.1)"))
		edge("NIC A: wait for the core clock edge", nicDom)
	}
	add(pipeline.StageOf("NIC A TX pipeline: schedule, header build, CC gate", p.NIC.TxCycles, nicDom, "nic400g Config.TxCycles (FACTS 6.2, E)"))
	add(pipeline.TimeStage("NIC A TX: MAC/PCS/FEC encode/SerDes", p.Switch.PhyTx, "the port's PHY (switchasic Config.PhyTx)"))
	add(pipeline.TimeStage("cable NIC A to switch", up.Propagation(), "5 ns/m (FACTS 6.1)"))
	for _, s := range sw.PortToPortBudget(0, frame, t) {
		s.Name = "switch: " + s.Name
		add(s)
	}
	add(pipeline.TimeStage("cable switch to NIC B", down.Propagation(), "5 ns/m (FACTS 6.1)"))
	tm := down.Transmit(0, frame)
	add(pipeline.TimeStage(fmt.Sprintf("NIC B RX: receive preamble + %d B", frame), tm.LastBitIn-tm.FirstBitIn,
		"serdes.Wire at the port's MAC rate"))
	add(pipeline.TimeStage("NIC B RX: RS(544,514) codeword fill", down.FECFill(), "interleave × 5440 b at the line rate (FACTS 3)"))
	add(pipeline.TimeStage("NIC B RX: FEC decode pipeline", p.Switch.PhyRx, "the port's PHY (switchasic Config.PhyRx)"))
	edge("NIC B: wait for the core clock edge", nicDom)
	add(pipeline.StageOf("NIC B RX pipeline: parse, QPC, translate, place", p.NIC.RxCycles, nicDom, "nic400g Config.RxCycles (FACTS 6.2, E)"))
	rxHost, err := nic400g.HostRxBudget(p.PCIe, p.Host, uint64(payload))
	if err != nil {
		return nil, err
	}
	for _, s := range rxHost {
		add(s)
	}
	return b, nil
}
