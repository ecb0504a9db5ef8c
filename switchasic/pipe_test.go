package switchasic

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDefaultPipeConfig(t *testing.T) {
	c := DefaultPipeConfig()
	require.NoError(t, c.Validate())
	assert.Equal(t, PipeConfig{Pipes: 8, PacketsPerCycle: 4, ClockPeriod: 800}, c)
	assert.InDelta(t, 1.25e9, c.ClockHz(), 1e-3)
	assert.InDelta(t, 40e9, c.PacketRate(), 1)
	assert.Error(t, PipeConfig{Pipes: 8, ClockPeriod: 800}.Validate())
}

func TestMinWireSlotAtLineRate(t *testing.T) {
	// S = ceil(pipe MAC rate x period / (8 x packets per cycle x 1e12)).
	def := DefaultPipeConfig()
	mix, err := NewPortPlan(ChipLanes, 8, PortGroup{16, 8})
	require.NoError(t, err)
	tests := []struct {
		name     string
		plan     *PortPlan
		cfg      PipeConfig
		pipeSlot int // PipeWireSlot of pipe 0
		want     int
	}{
		// 16 x 400G = 6.4e12 b/s per pipe: 6.4e12 x 800 / (8 x 4 x 1e12) = 160.
		{"128x400G default", Mode128x400G(8), def, 160, 160},
		{"64x800G default", Mode64x800G(8), def, 160, 160},
		{"512x100G default", Mode512x100G(8), def, 160, 160},
		// One pipe for 51.2e12 b/s: 51.2e12 x 800 / 32e12 = 1280.
		{"one pipe", Mode128x400G(1), PipeConfig{1, 4, 800}, 1280, 1280},
		// 6.4e12 x 800 / 24e12 = 213.33, rounded up.
		{"3 per cycle rounds up", Mode128x400G(8), PipeConfig{8, 3, 800}, 214, 214},
		// 6.4e12 x 1000 / 64e12 = 100.
		{"8 per cycle at 1 GHz", Mode256x200G(8), PipeConfig{8, 8, 1000}, 100, 100},
		// 6.4e12 x 1000 / 128e12 = 50, below the 84 B Ethernet minimum.
		{"line rate at 64 B", Mode128x400G(8), PipeConfig{8, 16, 1000}, 50, MinEthernetWireSlot},
		// Only pipes 0 and 1 have ports (16 x 800G on 128 lanes).
		{"uneven pipes", mix, def, 160, 160},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.pipeSlot, PipeWireSlot(tc.plan, tc.cfg, 0))
			got := MinWireSlotAtLineRate(tc.plan, tc.cfg)
			assert.Equal(t, tc.want, got)
			t.Logf("%v, %d pipes x %d pkt/cycle @ %v: %.1f Gpps, pipe 0 %.0f Gb/s, min wire slot %d B (frame %d B)",
				tc.plan, tc.cfg.Pipes, tc.cfg.PacketsPerCycle, tc.cfg.ClockPeriod, tc.cfg.PacketRate()/1e9,
				tc.plan.PipeMACRate(0).GbpsFloat(), got, got-20)
		})
	}
	assert.Equal(t, 0, PipeWireSlot(mix, def, 7), "a pipe without ports needs nothing")
	assert.Panics(t, func() { MinWireSlotAtLineRate(Mode128x400G(4), def) })
	assert.Panics(t, func() { PipeWireSlot(Mode128x400G(8), PipeConfig{8, 4, rtlmodel.Time(0)}, 0) })
}
