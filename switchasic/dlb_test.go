package switchasic

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDLBConfigValidate(t *testing.T) {
	require.NoError(t, DefaultDLBConfig().Validate())
	tests := []struct {
		name string
		edit func(*DLBConfig)
		want string
	}{
		{"zero gap", func(c *DLBConfig) { c.FlowletGap = 0 }, "flowlet gap"},
		{"table not a power of two", func(c *DLBConfig) { c.FlowletEntries = 3000 }, "3000 entries is not a power of two"},
		{"table too big", func(c *DLBConfig) { c.FlowletEntries = 1 << 21 }, "not a power of two from 1"},
		{"zero window", func(c *DLBConfig) { c.SampleWindow = 0 }, "sample window"},
		{"load shift", func(c *DLBConfig) { c.LoadShift = 17 }, "load shift 17"},
		{"band shift", func(c *DLBConfig) { c.BandShift = 41 }, "band shift 41"},
		{"no bands", func(c *DLBConfig) { c.Bands = 0 }, "1 to 256 quality bands, not 0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := DefaultDLBConfig()
			tc.edit(&c)
			assert.ErrorContains(t, c.Validate(), tc.want)
		})
	}
}

func TestPortQualityFixedPoint(t *testing.T) {
	// Defaults: EWMA weight 1/4 (shift 2), weights 0.5 (128/256), 4 KiB
	// bands, 8 bands. Each step is worked by hand from PortQuality.Update.
	type step struct {
		tx, queue uint64
		load      uint64 // UQ32.8
		band      int
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"idle", []step{{0, 0, 0, 0}}},
		{"400G at full load for 1 us", []step{
			// 0 - 0 + (50000<<8)>>2 = 3,200,000; m = 128*3,200,000>>16 = 6250; 6250>>12 = 1.
			{50000, 0, 3_200_000, 1},
			// 3,200,000 - 800,000 + 3,200,000 = 5,600,000; m = 10937; band 2.
			{50000, 0, 5_600_000, 2},
			// 5,600,000 - 1,400,000 + 3,200,000 = 7,400,000; m = 14453; band 3.
			{50000, 0, 7_400_000, 3},
		}},
		{"queue only", []step{
			// m = 128*(28672<<8)>>16 = 14336; band 3.
			{0, 28672, 0, 3},
			// m = 128*(65536<<8)>>16 = 32768; 8 would be band 8, capped at 7.
			{0, 65536, 0, 7},
		}},
		{"saturating inputs", []step{
			// tx and queue saturate at 2^32-1: load (2^32-1)<<8>>2.
			{1 << 40, 1 << 40, (1<<32 - 1) << 8 >> 2, 7},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pq := NewPortQuality(dlb4KiBBands())
			for i, s := range tc.steps {
				pq.Update(3, s.tx, s.queue)
				assert.Equal(t, s.load, pq.LoadEWMA(3), "step %d load", i)
				assert.Equal(t, s.band, pq.Band(3), "step %d band", i)
				assert.Equal(t, uint32(min(s.queue, 1<<32-1)), pq.QueueBytes(3))
			}
			assert.Equal(t, 0, pq.Band(2), "other ports untouched")
			assert.Equal(t, 0, pq.Band(99), "never-updated ports are best")
		})
	}
	// Under constant full load the EWMA settles within 2^shift units of
	// 2^-8 B below the sample, in band 6.
	pq := NewPortQuality(dlb4KiBBands())
	for range 100 {
		pq.Update(0, 50000, 0)
	}
	assert.InDelta(t, float64(50000<<8), float64(pq.LoadEWMA(0)), 4)
	assert.Equal(t, 6, pq.Band(0))
	assert.Panics(t, func() { pq.Update(-1, 0, 0) })
}

// dlb4KiBBands is the default DLB configuration with 4 KiB quality bands,
// the scale the known answers above are worked in.
func dlb4KiBBands() DLBConfig {
	c := DefaultDLBConfig()
	c.BandShift = 12
	return c
}

// dlbBalancer returns a DLB balancer over one group of ports 0..n-1.
func dlbBalancer(t testing.TB, n int, cfg DLBConfig) (*Balancer, int) {
	t.Helper()
	ft := NewForwardingTable(16)
	g, err := ft.AddGroup(portRange(0, n))
	require.NoError(t, err)
	return NewBalancer(DLB, ft, nil, 0, cfg), g
}

func TestDLBNewFlowletsAvoidCongestedMember(t *testing.T) {
	b, g := dlbBalancer(t, 8, dlb4KiBBands())
	const congested = 3
	for p := range 8 {
		b.UpdatePort(p, 0, 0)
	}
	b.UpdatePort(congested, 50000, 256<<10) // full load and a 256 KiB queue: band 7
	require.Equal(t, 7, b.Quality().Band(congested))
	keys := roceFlows(rtlmodel.NewRNG(5, "dlb-avoid"), 2000)
	count := make([]int, 8)
	for i := range keys {
		count[b.Pick(g, &keys[i], 0)]++
	}
	t.Logf("2000 new flowlets over 8 members, member %d congested: %v", congested, count)
	assert.Zero(t, count[congested])
	for p, n := range count {
		if p != congested {
			// 2000 flowlets less about 60 that share a slot with an earlier
			// one, spread evenly over 7 members by the pointer.
			assert.InDelta(t, 2000/7, n, 10, "port %d", p)
		}
	}
	// A lighter band wins over a heavier one: port 5 in band 1, the rest
	// (but 3) in band 2. The new flows come after the gap, so none of them
	// continues a flowlet of the first batch that shares its slot (the
	// table is tagless, as hardware's).
	for p := range 8 {
		b.UpdatePort(p, 0, 20000) // m = 10000: band 2
	}
	b.UpdatePort(congested, 0, 256<<10)
	b.UpdatePort(5, 0, 10000) // m = 5000: band 1
	more := roceFlows(rtlmodel.NewRNG(6, "dlb-avoid"), 100)
	for i := range more {
		assert.Equal(t, 5, b.Pick(g, &more[i], 10*rtlmodel.Microsecond))
	}
	started, stuck := b.Strategy().(*DLBStrategy).Counts()
	assert.Positive(t, started)
	t.Logf("flowlets started %d, packets that stuck %d", started, stuck)
}

func TestDLBFlowletsStickWithinGap(t *testing.T) {
	cfg := DefaultDLBConfig()
	b, g := dlbBalancer(t, 8, cfg)
	key := roceFlows(rtlmodel.NewRNG(9, "dlb-stick"), 1)[0]
	first := b.Pick(g, &key, 0)
	// The member turns bad, but packets keep arriving within the gap: the
	// flowlet stays on it.
	b.UpdatePort(first, 50000, 1<<20)
	now := rtlmodel.Time(0)
	for range 40 {
		now += cfg.FlowletGap / 2
		require.Equal(t, first, b.Pick(g, &key, now), "at %v", now)
	}
	// Exactly the gap of silence still continues the flowlet.
	now += cfg.FlowletGap
	require.Equal(t, first, b.Pick(g, &key, now))
	// One picosecond more than the gap starts a new flowlet, which leaves
	// the bad member.
	now += cfg.FlowletGap + 1
	moved := b.Pick(g, &key, now)
	assert.NotEqual(t, first, moved)
	assert.Equal(t, moved, b.Pick(g, &key, now+1), "and sticks to the new member")
	started, stuck := b.Strategy().(*DLBStrategy).Counts()
	assert.Equal(t, uint64(2), started)
	assert.Equal(t, uint64(42), stuck)
}

func TestDLBTiesRotate(t *testing.T) {
	// With every member in the same band, new flowlets take the members in
	// turn from the rotating pointer.
	b, g := dlbBalancer(t, 4, DefaultDLBConfig())
	keys := roceFlows(rtlmodel.NewRNG(2, "dlb-ties"), 8)
	got := make([]int, len(keys))
	for i := range keys {
		got[i] = b.Pick(g, &keys[i], 0)
	}
	assert.Equal(t, []int{0, 1, 2, 3, 0, 1, 2, 3}, got)
	var k packet.FlowKey
	assert.NotPanics(t, func() { b.Pick(g, &k, 0) })
}
