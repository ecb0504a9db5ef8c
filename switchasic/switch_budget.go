package switchasic

import (
	"github.com/fabricmodel/fabricmodel/pipeline"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/serdes"
)

// PortToPortBudget lists the stages a frame of frameBytes takes from its
// first bit in at port in's SerDes to its first bit out at the egress,
// unloaded, when its first bit arrives at firstBitIn. Every row is a field
// of the configuration or a quantity the PHY model computes from it; the
// clock-alignment rows are the waits for the next pipe clock edge that
// the cycle model performs. A test sends a frame through the cycle model
// and checks it leaves at exactly Total().
func (sw *Switch) PortToPortBudget(in, frameBytes int, firstBitIn rtlmodel.Time) pipeline.Budget {
	cfg := sw.cfg
	rx, err := serdes.NewWire(sw.wireConfig(in))
	if err != nil {
		panic(err)
	}
	d := sw.dom
	var b pipeline.Budget
	t := firstBitIn
	add := func(s pipeline.StageBudget) {
		b = append(b, s)
		t += s.Time()
	}
	// Reception: the bytes the ingress MAC needs before it passes the frame
	// on (the headers when cutting through, else the whole frame).
	need := frameBytes
	if cfg.CutThroughBytes > 0 && cfg.CutThroughBytes < frameBytes {
		need = cfg.CutThroughBytes
	}
	rxBits := uint64(serdes.PreambleSFDBytes+need) * 8
	// The receiver's wire sees the last needed bit after its serialisation
	// time at the port's MAC rate.
	ser := sw.ports[in].Lanes.MACRate().SerialTime(rxBits)
	serPS := rtlmodel.Time(ser.Num() / ser.Den())
	if need < frameBytes {
		serPS = rtlmodel.Time((ser.Num() + ser.Den() - 1) / ser.Den())
	}
	add(pipeline.TimeStage("ingress: receive preamble + "+itoa(need)+" B", serPS, "serdes.Wire at the port's MAC rate (FACTS 3)"))
	add(pipeline.TimeStage("ingress: RS(544,514) codeword fill", rx.FECFill(), "interleave × 5440 b at the line rate (FACTS 3)"))
	add(pipeline.TimeStage("ingress: FEC decode pipeline", cfg.PhyRx, "Config.PhyRx (FACTS 3, E)"))
	add(pipeline.TimeStage("ingress: wait for the pipe clock edge", d.FirstEdgeAtOrAfter(t)-t, "cycle alignment"))
	add(pipeline.StageOf("ingress pipe: parser + forwarding", cfg.IngressCycles, d, "Config.IngressCycles"))
	add(pipeline.StageOf("traffic manager: admit, queue, schedule", cfg.MMUCycles, d, "Config.MMUCycles"))
	add(pipeline.StageOf("egress pipeline", cfg.EgressCycles, d, "Config.EgressCycles"))
	add(pipeline.TimeStage("egress: TX MAC/PCS/FEC encode/SerDes", cfg.PhyTx, "Config.PhyTx (FACTS 6.2, E)"))
	return b
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}
