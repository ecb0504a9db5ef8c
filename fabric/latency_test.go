package fabric

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/nic400g"
	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/serdes"
	"github.com/fabricmodel/fabricmodel/switchasic"
	"github.com/stretchr/testify/require"
)

// addPoster is AddPoster that fails the test on an error.
func addPoster(t testing.TB, e *rtlmodel.Engine, n *nic400g.NIC, host nic400g.HostSide, wrs []nic400g.WorkRequest) {
	t.Helper()
	require.NoError(t, AddPoster(e, n, host, wrs))
}

// NIC, switch, NIC: a 64 B inline RDMA WRITE from the doorbell to the CQE
// visible at the responder, with the time each stage took in the run.
func TestOneWayLatencyThroughOneSwitch(t *testing.T) {
	s, err := NewStar(2, switchasic.DefaultConfig(), func(i int) nic400g.Config { return nic400g.DefaultConfig(uint32(i)) },
		rtlmodel.Options{Seed: 1})
	require.NoError(t, err)
	host := s.NICs[0].Host()
	var dones []nic400g.Completion
	s.NICs[1].OnComplete = func(c nic400g.Completion) { dones = append(dones, c) }
	var up, down serdes.RxTiming
	var atSwitch, atNIC, doorbell rtlmodel.Time
	s.Engine.Hooks().OnTransfer(func(ev *rtlmodel.TransferEvent) {
		if ev.Link == "cpu0>nic" {
			doorbell = ev.Arrive
			return
		}
		f, ok := ev.Value().(serdes.RxFrame[*packet.Desc])
		if !ok || f.Frame.Meta.Flags&1 == 0 {
			return
		}
		switch ev.Link {
		case "sw/port0/rx":
			up, atSwitch = f.Timing, ev.Arrive
		case "sw/port1/wire":
			down, atNIC = f.Timing, ev.Arrive
		}
	})
	// The first write finds the QP context cold (a PCIe read, FACTS 5.1);
	// the second, 20 us later, finds it in the cache: the 0.9 us case.
	const cold, posted = 1000 * rtlmodel.Nanosecond, 20000 * rtlmodel.Nanosecond
	addPoster(t, s.Engine, s.NICs[0], host, []nic400g.WorkRequest{
		{QP: 1, Dst: 1, DestQP: 2, Bytes: 64, Inline: true, Posted: cold},
		{QP: 1, Dst: 1, DestQP: 2, Bytes: 64, Inline: true, Posted: posted}})
	require.NoError(t, s.Engine.Run(rtlmodel.Forever))
	require.Len(t, dones, 2)
	miss, done := dones[0], dones[1]
	require.Equal(t, uint64(64), done.Bytes)
	t.Logf("QP context miss: doorbell to CQE visible %.2f ns", (miss.Visible - miss.Posted).Nanoseconds())
	total := done.Visible - done.Posted
	// a frame's first bit left its transmitter a cable's propagation
	// before it came in
	upOut := up.FirstBitIn - s.NICs[0].Phy().Wire().Propagation()
	downOut := down.FirstBitIn - s.Switch.TxPhy(1).Wire().Propagation()
	rows := []struct {
		stage string
		from  rtlmodel.Time
		to    rtlmodel.Time
	}{
		{"doorbell: CPU MMIO write with the WQE (PCIe)", posted, doorbell},
		{"NIC TX: schedule, header build, pipeline, MAC/PCS/FEC", doorbell, upOut},
		{"cable NIC to switch", upOut, up.FirstBitIn},
		{"switch: first bit in to first bit out", up.FirstBitIn, downOut},
		{"cable switch to NIC", downOut, down.FirstBitIn},
		{"NIC RX: frame in, FEC fill and decode", down.FirstBitIn, down.Decoded()},
		{"NIC RX: to the core clock, parse, QPC, place", down.Decoded(), done.Placed},
		{"PCIe: data write, CQE write, visible to the poll", done.Placed, done.Visible},
	}
	var sum rtlmodel.Time
	for _, r := range rows {
		t.Logf("%-52s %8.2f ns", r.stage, (r.to - r.from).Nanoseconds())
		sum += r.to - r.from
	}
	t.Logf("%-52s %8.2f ns (switch saw the frame at %v, the NIC at %v)", "total, doorbell to CQE visible", total.Nanoseconds(), atSwitch, atNIC)
	require.Equal(t, total, sum, "the stages add up to the measured total")
	require.InEpsilon(t, 900.0, total.Nanoseconds(), 0.05, "0.9 us ± 5%")
}

// The write budget is what the cycle model does, to the picosecond: with
// the QP context cached and with a cold cache, and after changing the
// switch's FEC decode latency or its pipe clock.
func TestWriteBudgetMatchesTheCycleModel(t *testing.T) {
	variants := []struct {
		name string
		sw   func(*switchasic.Config)
	}{
		{"default", func(*switchasic.Config) {}},
		{"FEC decode +30 ns", func(c *switchasic.Config) { c.PhyRx += 30 * rtlmodel.Nanosecond }},
		{"pipe clock 1.0 GHz", func(c *switchasic.Config) { c.Pipes.ClockPeriod = 1000 }},
	}
	var base [2]rtlmodel.Time
	for vi, v := range variants {
		p := DefaultLatencyPath()
		v.sw(&p.Switch)
		s, err := NewStar(2, p.Switch, func(i int) nic400g.Config { return nic400g.DefaultConfig(uint32(i)) }, rtlmodel.Options{Seed: 1})
		require.NoError(t, err)
		var dones []nic400g.Completion
		s.NICs[1].OnComplete = func(c nic400g.Completion) { dones = append(dones, c) }
		const cold, warm = 1000 * rtlmodel.Nanosecond, 20000 * rtlmodel.Nanosecond
		addPoster(t, s.Engine, s.NICs[0], s.NICs[0].Host(), []nic400g.WorkRequest{
			{QP: 1, Dst: 1, DestQP: 2, Bytes: 64, Inline: true, Posted: cold},
			{QP: 1, Dst: 1, DestQP: 2, Bytes: 64, Inline: true, Posted: warm}})
		require.NoError(t, s.Engine.Run(rtlmodel.Forever))
		require.Len(t, dones, 2)
		for k, c := range []struct {
			posted rtlmodel.Time
			miss   bool
		}{{cold, true}, {warm, false}} {
			b, err := WriteBudget(p, 64, c.posted, c.miss)
			require.NoError(t, err)
			measured := dones[k].Visible - dones[k].Posted
			require.Equal(t, b.Total(), measured, "%s, context miss %v", v.name, c.miss)
			if vi == 0 {
				base[k] = measured
			}
			t.Logf("%-20s context miss %-5v budget %v, cycle model %v (%+d ps against the default)", v.name, c.miss, b.Total(), measured,
				int64(measured)-int64(base[k]))
		}
	}
}
