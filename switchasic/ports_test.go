package switchasic

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/serdes"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStandardPortModes(t *testing.T) {
	tests := []struct {
		name  string
		plan  func(int) *PortPlan
		ports int
		speed serdes.LaneGroup
		gbps  float64
	}{
		{"64x800G", Mode64x800G, 64, serdes.Port800G, 800},
		{"128x400G", Mode128x400G, 128, serdes.Port400G, 400},
		{"256x200G", Mode256x200G, 256, serdes.Port200G, 200},
		{"512x100G", Mode512x100G, 512, serdes.Port100G, 100},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.plan(8)
			require.Equal(t, tc.ports, p.NumPorts())
			assert.Len(t, p.Ports(), tc.ports)
			assert.Equal(t, ChipLanes, p.UsedLanes())
			assert.Equal(t, 51_200.0, p.MACRate().GbpsFloat())
			for i, port := range p.Ports() {
				assert.Equal(t, i, port.Index)
				assert.Equal(t, tc.speed, port.Lanes)
				assert.Equal(t, i*tc.speed.Lanes(), port.FirstLane)
				assert.Equal(t, port.FirstLane/64, port.Pipe, "8 pipes of 64 lanes")
				assert.Equal(t, tc.gbps, port.MACRate().GbpsFloat())
			}
			for pipe := range 8 {
				assert.Len(t, p.PipePorts(pipe), tc.ports/8)
				assert.Equal(t, 6_400.0, p.PipeMACRate(pipe).GbpsFloat())
			}
			m, err := ParsePortMode(tc.name)
			require.NoError(t, err)
			assert.Equal(t, tc.ports, m.Ports())
			assert.Equal(t, tc.name+" on 512/512 lanes, 8 pipes", p.String())
		})
	}
	_, err := ParsePortMode("32x1600G")
	assert.ErrorContains(t, err, "unknown port mode")
	assert.Panics(t, func() { Mode128x400G(3) })
}

func TestPortPlanMixes(t *testing.T) {
	tests := []struct {
		name   string
		groups []PortGroup
		ports  int
		lanes  int
		str    string
	}{
		{"32x800G+64x400G", []PortGroup{{32, 8}, {64, 4}}, 96, 512, "32x800G+64x400G on 512/512 lanes, 4 pipes"},
		{"all four speeds", []PortGroup{{16, 8}, {32, 4}, {64, 2}, {128, 1}}, 240, 512, "16x800G+32x400G+64x200G+128x100G on 512/512 lanes, 4 pipes"},
		{"partial chip", []PortGroup{{8, 8}, {2, 2}}, 10, 68, "8x800G+2x200G on 68/512 lanes, 4 pipes"},
		{"narrow then aligned", []PortGroup{{2, 1}, {1, 2}, {1, 4}}, 4, 8, "2x100G+1x200G+1x400G on 8/512 lanes, 4 pipes"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := NewPortPlan(ChipLanes, 4, tc.groups...)
			require.NoError(t, err)
			assert.Equal(t, tc.ports, p.NumPorts())
			assert.Equal(t, tc.lanes, p.UsedLanes())
			assert.Equal(t, tc.str, p.String())
			lane := 0
			for _, port := range p.Ports() {
				assert.Equal(t, lane, port.FirstLane)
				assert.Equal(t, port.Core(), (port.FirstLane+port.Lanes.Lanes()-1)/CoreLanes, "port %d inside one core", port.Index)
				assert.Equal(t, port.FirstLane/128, port.Pipe)
				assert.Contains(t, p.PipePorts(port.Pipe), port.Index)
				lane += port.Lanes.Lanes()
			}
		})
	}
}

func TestPortPlanErrors(t *testing.T) {
	tests := []struct {
		name   string
		lanes  int
		pipes  int
		groups []PortGroup
		want   string
	}{
		{"over budget", 512, 8, []PortGroup{{64, 8}, {1, 1}}, "need 513 lanes, over the budget of 512"},
		{"crosses a core", 512, 8, []PortGroup{{1, 4}, {1, 2}, {1, 4}}, "port 2 (400G, group 2) on lanes 6-9 crosses SerDes core 0 at lane 8"},
		{"800G after 100G crosses", 512, 8, []PortGroup{{1, 1}, {1, 8}}, "crosses SerDes core 0 at lane 8"},
		{"misaligned 200G", 512, 8, []PortGroup{{1, 1}, {1, 2}}, "port 1 (200G, group 1) starts at lane 1, not a multiple of its 2 lanes"},
		{"three lanes", 512, 8, []PortGroup{{4, 3}}, "port group 0: serdes: a port has 1, 2, 4 or 8 lanes, not 3"},
		{"zero count", 512, 8, []PortGroup{{0, 4}}, "port group 0 asks for 0 ports"},
		{"no groups", 512, 8, nil, "at least one port group"},
		{"pipes not dividing cores", 512, 3, []PortGroup{{128, 4}}, "3 pipes cannot split 64 SerDes cores"},
		{"zero pipes", 512, 0, []PortGroup{{128, 4}}, "0 pipes"},
		{"lanes not whole cores", 500, 1, []PortGroup{{1, 4}}, "500 lanes is not a positive multiple of the 8-lane SerDes core"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := NewPortPlan(tc.lanes, tc.pipes, tc.groups...)
			assert.Nil(t, p)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}
