package switchasic

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// smallTM is a traffic manager with a buffer of cells cells and no WRED.
func smallTM(t testing.TB, ports int, cells uint64, edit func(*TMConfig)) *TrafficManager {
	t.Helper()
	cfg := DefaultTMConfig(ports)
	cfg.BufferBytes = cells * TH5CellBytes
	for i := range cfg.WRED {
		cfg.WRED[i].Enabled = false
	}
	if edit != nil {
		edit(&cfg)
	}
	tm, err := NewTrafficManager(cfg, 1)
	require.NoError(t, err)
	return tm
}

func TestDefaultTMConfig(t *testing.T) {
	cfg := DefaultTMConfig(128)
	require.NoError(t, cfg.Validate())
	tm, err := NewTrafficManager(cfg, 42)
	require.NoError(t, err)
	require.Equal(t, uint64(682160), tm.FreeCells())
	require.Zero(t, tm.UsedCells())
	require.Equal(t, uint64(682160), tm.Buffer().SharedCells(), "no lossless class, no headroom reserve")
	require.True(t, tm.Curve(0).Enabled())

	// one lossless class on 128 ports reserves 128 × ceil(218,224/254) cells
	cfg.PFC.Enabled[3] = true
	tm, err = NewTrafficManager(cfg, 42)
	require.NoError(t, err)
	require.True(t, tm.Lossless(3))
	xoff, xon, hr := tm.PFCThresholds()
	require.Equal(t, []uint64{250000, 245800, 218224}, []uint64{xoff, xon, hr})
	require.Equal(t, uint64(128*860), tm.Buffer().HeadroomCells())
}

func TestTMConfigErrorsNameTheField(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edit  func(*TMConfig)
		field string
	}{
		{"ports", func(c *TMConfig) { c.Ports = 0 }, "TMConfig.Ports"},
		{"classes", func(c *TMConfig) { c.Classes = 9 }, "TMConfig.Classes"},
		{"cell", func(c *TMConfig) { c.CellBytes = 0 }, "TMConfig.CellBytes"},
		{"buffer", func(c *TMConfig) { c.BufferBytes = 10 }, "TMConfig.BufferBytes"},
		{"alpha", func(c *TMConfig) { c.AlphaShift = 9 }, "TMConfig.AlphaShift"},
		{"wred", func(c *TMConfig) { c.WRED[2].KmaxBytes = 0 }, "TMConfig.WRED[2]: KmaxBytes"},
		{"pfc beyond classes", func(c *TMConfig) { c.Classes = 4; c.PFC.Enabled[5] = true }, "TMConfig.PFC.Enabled[5]"},
		{"xoff", func(c *TMConfig) { c.PFC.Enabled[3] = true; c.PFC.XoffBytes = 0 }, "TMConfig.PFC.XoffBytes"},
		{"headroom too big", func(c *TMConfig) {
			c.PFC.Enabled = [8]bool{true, true, true, true, true, true, true}
		}, "TMConfig.PFC.HeadroomBytes"},
		{"trim bytes", func(c *TMConfig) { c.Trim.Enabled = true; c.Trim.TrimBytes = 0 }, "TMConfig.Trim.TrimBytes"},
		{"trim class", func(c *TMConfig) { c.Trim.Enabled = true; c.Trim.TrimClass = 8 }, "TMConfig.Trim.TrimClass"},
		{"trim lossless", func(c *TMConfig) { c.Trim.Enabled = true; c.PFC.Enabled[7] = true }, "TMConfig.Trim.TrimClass 7 is lossless"},
		{"trim no class", func(c *TMConfig) { c.Trim.Enabled = true; c.Trim.Trimmable = [MaxClasses]bool{} }, "TMConfig.Trim.Trimmable names no class"},
		{"trim eligible beyond classes", func(c *TMConfig) {
			c.Classes, c.Trim.Enabled, c.Trim.TrimClass, c.Trim.Trimmable[5] = 4, true, 3, true
		}, "TMConfig.Trim.Trimmable[5]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := DefaultTMConfig(128)
			tc.edit(&cfg)
			_, err := NewTrafficManager(cfg, 1)
			require.ErrorContains(t, err, tc.field)
		})
	}
	cfg := DefaultTMConfig(128)
	cfg.Classes = 4
	cfg.WRED[6].KmaxBytes = 0 // beyond Classes: ignored
	require.NoError(t, cfg.Validate())
}

// Choudhury–Hahne: a lone queue settles at alpha/(1+alpha) of the shared
// pool, N hogs at alpha/(1+N·alpha) each, to within one packet.
func TestDynamicThresholdHogs(t *testing.T) {
	const cells = 100000
	for _, tc := range []struct {
		shift int
		alpha float64
		hogs  int
	}{
		{0, 1, 1}, {1, 0.5, 1}, {2, 0.25, 1}, {-1, 2, 1}, {-3, 8, 1},
		{0, 1, 2}, {1, 0.5, 4}, {-1, 2, 3},
	} {
		tm := smallTM(t, 8, cells, func(c *TMConfig) { c.AlphaShift = tc.shift })
		const pkt = 1500 // 6 cells
		n := tm.Buffer().CellsFor(pkt)
		// admit round-robin over the hogs until each has hit its limit
		full := make([]bool, tc.hogs)
		for done := 0; done < tc.hogs; {
			for h := 0; h < tc.hogs; h++ {
				if full[h] {
					continue
				}
				v := tm.Admit(0, h, 0, pkt, false)
				if v.Action == Drop {
					require.Equal(t, DropQueueLimit, v.Reason)
					full[h] = true
					done++
				}
			}
		}
		want := tc.alpha / (1 + float64(tc.hogs)*tc.alpha) * cells
		for h := 0; h < tc.hogs; h++ {
			require.InDelta(t, want, float64(tm.QueueCells(h, 0)), float64(n)*float64(tc.hogs)*max(tc.alpha, 1)+1,
				"alpha %v, %d hogs, hog %d", tc.alpha, tc.hogs, h)
		}
		require.Positive(t, tm.Buffer().SharedFree(), "DT always leaves cells free")
		require.Equal(t, uint64(tc.hogs), tm.Stats().Drops[DropQueueLimit])
	}
}

// A lossy packet the shared pool cannot hold is dropped as buffer full
// (with alpha > 1 the queue limit alone would let it in).
func TestDropBufferFull(t *testing.T) {
	tm := smallTM(t, 8, 100, func(c *TMConfig) { c.AlphaShift = -3 }) // alpha 8
	// 64 queues of one-cell packets: together they may take 512/513 of
	// the pool, so it drains below the 6 cells of a 1500 B packet
	for i := 0; tm.Buffer().SharedFree() >= 6; i++ {
		tm.Admit(0, i%8, i/8%8, 254, false)
	}
	v := tm.Admit(0, 1, 0, 1500, false)
	require.Equal(t, Verdict{Action: Drop, Reason: DropBufferFull}, v)
}

// Trimming replaces the drop: the header is queued in TrimClass and
// charged TrimBytes; small packets and full buffers still drop.
func TestTrimInsteadOfDrop(t *testing.T) {
	tm := smallTM(t, 2, 1000, func(c *TMConfig) {
		c.Trim = TrimConfig{Enabled: true, TrimBytes: 64, TrimClass: 7, Trimmable: [MaxClasses]bool{2: true}}
	})
	for tm.Admit(0, 1, 2, 4096, false).Action == Enqueue {
	}
	s := tm.Stats()
	require.Equal(t, uint64(1), s.Trimmed)
	require.Zero(t, s.Dropped())
	require.Equal(t, uint64(64), tm.QueueBytes(1, 7))
	require.Equal(t, uint64(1), tm.QueueCells(1, 7))
	require.Equal(t, uint64(64), tm.IngressBytes(0, 7))

	vt := tm.Admit(0, 1, 2, 4096, true)
	require.Equal(t, Verdict{Action: Trim, Cells: 1, Class: 7, Bytes: 64}, vt)
	require.Equal(t, uint64(128), tm.QueueBytes(1, 7))

	// releasing a trimmed header uses its verdict's class and bytes
	q2 := tm.QueueBytes(1, 2)
	used := tm.UsedCells()
	require.False(t, tm.Release(0, 1, vt.Class, vt.Bytes))
	require.Equal(t, used-1, tm.UsedCells())
	require.Equal(t, q2, tm.QueueBytes(1, 2))
	require.Equal(t, uint64(64), tm.QueueBytes(1, 7))

	// a packet no longer than the trim size is dropped, not trimmed
	v := tm.Admit(0, 1, 2, 64, false)
	for v.Action == Enqueue {
		v = tm.Admit(0, 1, 2, 64, false)
	}
	require.Equal(t, Verdict{Action: Drop, Reason: DropQueueLimit}, v)
	require.Equal(t, uint64(2), tm.Stats().Trimmed)
}

func TestTrimNeedsACell(t *testing.T) {
	// alpha 8 so the buffer fills before the queue limit
	tm := smallTM(t, 2, 17, func(c *TMConfig) {
		c.AlphaShift = -3
		c.Trim = TrimConfig{Enabled: true, TrimBytes: 64, TrimClass: 7, Trimmable: [MaxClasses]bool{0: true}}
	})
	require.Equal(t, Enqueue, tm.Admit(0, 1, 0, 4200, false).Action) // 17 cells
	v := tm.Admit(0, 1, 0, 4200, false)
	require.Equal(t, Verdict{Action: Drop, Reason: DropBufferFull}, v)
}

func TestReleaseMisuse(t *testing.T) {
	tm := smallTM(t, 2, 100, nil)
	require.Panics(t, func() { tm.Release(0, 1, 0, 100) })
	tm.Admit(0, 1, 0, 100, false)
	require.Panics(t, func() { tm.Release(1, 1, 0, 100) }, "wrong ingress")
	require.Panics(t, func() { tm.Admit(0, 2, 0, 100, false) }, "egress out of range")
	require.Panics(t, func() { tm.Admit(0, 1, 8, 100, false) }, "class out of range")
	require.Panics(t, func() { tm.Admit(0, 1, 0, 0, false) }, "empty packet")
}

func TestDropReasonAndActionStrings(t *testing.T) {
	for r, want := range []string{"none", "buffer_full", "queue_limit", "headroom_overflow", "no_route", "malformed", "ttl"} {
		require.Equal(t, want, DropReason(r).String())
	}
	require.Equal(t, "DropReason(9)", DropReason(9).String())
	require.Equal(t, []string{"enqueue", "trim", "drop", "Action(3)"},
		[]string{Enqueue.String(), Trim.String(), Drop.String(), Action(3).String()})
	require.Equal(t, "mlx5", HeadroomMLX5.String())
	require.Equal(t, "cisco", HeadroomCisco.String())
}

func TestObserve(t *testing.T) {
	tm := smallTM(t, 2, 100, func(c *TMConfig) {
		c.PFC.Enabled[3] = true
		c.PFC.XoffBytes, c.PFC.XonBytes, c.PFC.HeadroomBytes = 2000, 1000, 2540
		c.WRED[0] = WREDConfig{Enabled: true, KminBytes: 0, KmaxBytes: 1}
	})
	tm.Admit(0, 1, 0, 300, false) // before observing: carried over
	r := rtlmodel.NewRegistry()
	tm.Observe(r, "sw/tm")
	require.True(t, tm.Admit(0, 1, 0, 300, true).MarkCE)
	for tm.Admit(0, 1, 1, 1500, false).Action != Drop {
	}
	for !tm.Admit(1, 1, 3, 1000, false).PFCXoff {
	}
	for !tm.Release(1, 1, 3, 1000) {
	}
	val := func(name string) uint64 {
		m, ok := r.Lookup("sw/tm/" + name)
		require.True(t, ok, name)
		return m.(*rtlmodel.Counter).Value()
	}
	require.Equal(t, uint64(1), val("ecn_marked"))
	require.Equal(t, uint64(1), val("drops/queue_limit"))
	require.Equal(t, uint64(0), val("drops/buffer_full"))
	require.Equal(t, uint64(0), val("drops/headroom_overflow"))
	require.Equal(t, uint64(0), val("trimmed"))
	require.Equal(t, uint64(1), val("pfc_xoff"))
	require.Equal(t, uint64(1), val("pfc_xon"))
	g, ok := r.Lookup("sw/tm/used_cells")
	require.True(t, ok)
	require.Equal(t, int64(tm.Stats().MaxUsedCells), g.(*rtlmodel.Gauge).Max())
	require.Equal(t, int64(tm.UsedCells()), g.(*rtlmodel.Gauge).Value())
}

func TestObserveQueues(t *testing.T) {
	tm := smallTM(t, 2, 1000, nil)
	tm.Admit(0, 1, 2, 1000, false)
	r := rtlmodel.NewRegistry()
	tm.ObserveQueues(r, "tm")
	tm.Admit(0, 1, 2, 500, false)
	tm.Release(0, 1, 2, 1000)
	m, ok := r.Lookup("tm/q1/c2/bytes")
	require.True(t, ok)
	g := m.(*rtlmodel.Gauge)
	require.Equal(t, int64(500), g.Value())
	require.Equal(t, int64(1500), g.Max())
	_, ok = r.Lookup("tm/pfc_xoff")
	require.True(t, ok, "ObserveQueues registers the TM counters too")
	_, ok = r.Lookup("tm/q0/c7/bytes")
	require.True(t, ok)
}
