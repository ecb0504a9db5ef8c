package switchasic

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// rigRecord is everything a rig's hosts received, when, and every metric
// at the end but the transfers of the pipes' links to the traffic manager,
// which hosted pipes do not have.
type rigRecord struct {
	received, trimmed, marked, pfcIn []int
	firstIn, firstBitOut, rxTimes    [][]rtlmodel.Time
	end                              rtlmodel.Time
	stats                            []rtlmodel.MetricRecord
}

func recordRig(r *rig) rigRecord {
	var rec rigRecord
	for _, hs := range r.hosts {
		rec.received = append(rec.received, hs.received)
		rec.trimmed = append(rec.trimmed, hs.trimmed)
		rec.marked = append(rec.marked, hs.marked)
		rec.pfcIn = append(rec.pfcIn, hs.pfcIn)
		rec.firstIn = append(rec.firstIn, hs.firstIn)
		rec.firstBitOut = append(rec.firstBitOut, hs.firstBitOut)
		rec.rxTimes = append(rec.rxTimes, hs.rxTimes)
	}
	rec.end = r.e.Now()
	for _, m := range r.e.Stats().Records() {
		if !strings.HasSuffix(m.Name, ">mmu/transfers") { // the links of pipes apart
			rec.stats = append(rec.stats, m)
		}
	}
	return rec
}

// TestHostedPipesEqualPipesApart runs loaded switches twice, once with the
// ingress pipes hosted by the traffic manager and once as components of
// their own, and requires the same frames at the same times everywhere and
// the same counters: incasts under PFC and under trimming with a small
// buffer (pauses, trims, drops, ECN marks), and random all-to-all load
// with per-flow, per-packet and random balancing, on one pipe and on
// eight, one and two packets per pipe cycle.
func TestHostedPipesEqualPipesApart(t *testing.T) {
	type variant struct {
		name string
		set  func(*Config)
		load func(r *rig)
	}
	incast := func(r *rig) {
		for i := 0; i < 8; i++ {
			hs := r.hosts[i]
			hs.class, hs.ect, hs.total = 3, true, 300
			hs.dst = func(*host, int) uint32 { return 8 }
		}
	}
	allToAll := func(r *rig) {
		for _, hs := range r.hosts {
			hs.total, hs.ect, hs.entropyPerPacket = 200, true, true
			hs.dst = func(h *host, _ int) uint32 { return uint32(h.rng.Intn(len(r.hosts))) }
		}
	}
	variants := []variant{
		{"incast-pfc", func(c *Config) { c.TM.PFC.Enabled[3] = true }, incast},
		{"incast-trim", func(c *Config) {
			c.TM.PFC.Enabled = [8]bool{}
			c.TM.Trim.Enabled = true
			c.TM.Trim.Trimmable = [MaxClasses]bool{3: true} // the incast's class
			c.TM.BufferBytes = 1 << 20
		}, incast},
		{"all-to-all-per-flow", func(c *Config) { c.LB = PerFlow }, allToAll},
		{"all-to-all-spray", func(c *Config) { c.LB = PerPacketEntropy }, allToAll},
		{"all-to-all-random-2ppc", func(c *Config) {
			c.LB = Random
			c.Pipes.PacketsPerCycle = 2
		}, allToAll},
		{"all-to-all-one-pipe", func(c *Config) {
			c.Pipes.Pipes = 1
			c.Plan = Mode128x400G(1)
		}, allToAll},
	}
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			// traced, every transfer is recorded (and links stage their
			// items for the hooks instead of delivering at Send)
			run := func(apart, traced bool) (rigRecord, *rig, string) {
				cfg := DefaultConfig()
				v.set(&cfg)
				cfg.pipesApart = apart
				r := newRig(t, cfg, 24, rtlmodel.Options{Seed: 3})
				r.e.Hooks().OnEdge(r.conservation(t))
				rec := rtlmodel.NewTraceRecorder(nil)
				if traced {
					rec.Attach(r.e)
				}
				for _, hs := range r.hosts {
					hs.keepTimes = true
				}
				v.load(r)
				require.NoError(t, r.e.Run(rtlmodel.Forever))
				var trace bytes.Buffer
				_, err := rec.WriteTo(&trace)
				require.NoError(t, err)
				return recordRig(r), r, trace.String()
			}
			hosted, rh, _ := run(false, false)
			apart, ra, _ := run(true, false)
			hostedTraced, _, hostedTrace := run(false, true)
			apartTraced, _, apartTrace := run(true, true)
			require.Equal(t, hosted, hostedTraced, "tracing changed what the hosts received")
			require.Equal(t, apart, apartTraced, "tracing changed what the hosts received")
			require.Contains(t, hostedTrace, `>mmu","from":"sw/pipe`)
			require.Equal(t, apartTrace, hostedTrace, "a trace shows the pipes as it does with the pipes apart")
			require.NotEmpty(t, rh.sw.mmu.hosted, "the pipes are hosted")
			require.Empty(t, ra.sw.mmu.hosted, "the pipes are apart")
			var got int
			for _, n := range hosted.received {
				got += n
			}
			require.Greater(t, got, 1000)
			require.Equal(t, apart, hosted)
			require.Less(t, rh.e.Evals(), ra.e.Evals(), "hosting saves evaluations")
		})
	}
}

// The traffic manager hosts the pipes outside DLB, unless a test keeps
// them apart or the plan is too large for the rx watch's entries; an
// rxEntry takes apart into what it was made of.
func TestHostsPipesWhereTheIndicesFit(t *testing.T) {
	sw := func(lb LBMode, pipes, ports int) *Switch {
		return &Switch{cfg: Config{LB: lb, Pipes: PipeConfig{Pipes: pipes}}, ports: make([]Port, ports)}
	}
	require.True(t, sw(PerFlow, 8, 128).hostsPipes())
	require.True(t, sw(PerPacketEntropy, 255, 2047).hostsPipes())
	require.False(t, sw(DLB, 8, 128).hostsPipes())
	require.False(t, sw(PerFlow, 256, 128).hostsPipes())
	require.False(t, sw(PerFlow, 8, 2048).hostsPipes())
	apart := sw(PerFlow, 8, 128)
	apart.cfg.pipesApart = true
	require.False(t, apart.hostsPipes())
	for _, c := range [][2]int{{0, 0}, {254, 2046}, {7, 63}} {
		e := rxEntry(c[0], c[1])
		require.Equal(t, c, [2]int{rxPipe(e), rxInput(e)})
	}
}
