package switchasic

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// XOFF when the (ingress, class) bytes exceed XOFF, held while they stay
// at or above XON, XON when they fall below it (FACTS 2.7).
func TestPFCHysteresis(t *testing.T) {
	for _, tc := range []struct {
		name           string
		xoff, xon      uint64
		mtu            int
		pkt            int
		wantXoffAt     int // packets admitted when XOFF is raised (1-based)
		wantXonAfterRx int // releases until XON
	}{
		// xon given: 11th packet takes 11,000 > 10,000; XON once below 6,000
		{"explicit xon", 10000, 6000, 4200, 1000, 11, 0},
		// xon = xoff − MTU = 5,800
		{"mlx5 hysteresis", 10000, 0, 4200, 1000, 11, 0},
		// xon = xoff: no hysteresis band below XOFF but still strict <
		{"no band", 8000, 8000, 4200, 2000, 5, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tm := smallTM(t, 4, 10000, func(c *TMConfig) {
				c.PFC.Enabled[3] = true
				c.PFC.XoffBytes, c.PFC.XonBytes, c.PFC.MTUBytes = tc.xoff, tc.xon, tc.mtu
				c.PFC.HeadroomBytes = 50000
			})
			xoff, xon, _ := tm.PFCThresholds()
			in := 0
			for {
				v := tm.Admit(1, 2, 3, tc.pkt, false)
				require.Equal(t, Enqueue, v.Action)
				in++
				if v.PFCXoff {
					break
				}
				require.False(t, tm.Paused(1, 3))
				require.LessOrEqual(t, tm.IngressBytes(1, 3), xoff)
			}
			require.Equal(t, tc.wantXoffAt, in)
			require.True(t, tm.Paused(1, 3))
			require.Greater(t, tm.IngressBytes(1, 3), xoff)
			require.False(t, tm.Paused(0, 3), "other ingress ports are not paused")
			require.False(t, tm.Paused(1, 2), "other classes are not paused")

			// in-flight packets after XOFF go to headroom, no second XOFF
			for range 3 {
				v := tm.Admit(1, 2, 3, tc.pkt, false)
				require.Equal(t, Enqueue, v.Action)
				require.False(t, v.PFCXoff)
				in++
			}
			require.Equal(t, 3*tm.Buffer().CellsFor(tc.pkt), tm.IngressHeadroomCells(1, 3))

			// drain: XON exactly at the first release that goes below XON
			for in > 0 {
				before := tm.IngressBytes(1, 3)
				x := tm.Release(1, 2, 3, tc.pkt)
				in--
				after := tm.IngressBytes(1, 3)
				if x {
					require.GreaterOrEqual(t, before, xon)
					require.Less(t, after, xon)
					require.False(t, tm.Paused(1, 3))
					break
				}
				require.True(t, tm.Paused(1, 3))
			}
			require.False(t, tm.Paused(1, 3))
			require.Zero(t, tm.IngressHeadroomCells(1, 3))
			s := tm.Stats()
			require.Equal(t, uint64(1), s.Xoff)
			require.Equal(t, uint64(1), s.Xon)
			require.Zero(t, s.Dropped())
		})
	}
}

// Beyond its headroom a lossless (port, class) drops with
// DropHeadroomOverflow, counted; a correctly sized config never does.
func TestPFCHeadroomOverflow(t *testing.T) {
	tm := smallTM(t, 2, 10000, func(c *TMConfig) {
		c.PFC.Enabled[3] = true
		c.PFC.XoffBytes, c.PFC.XonBytes = 5000, 4000
		c.PFC.HeadroomBytes = 10 * TH5CellBytes // 10 cells
	})
	for !tm.Admit(0, 1, 3, 1000, false).PFCXoff {
	}
	// 1000 B = 4 cells: two more fit in 10 headroom cells, the third not
	require.Equal(t, Enqueue, tm.Admit(0, 1, 3, 1000, false).Action)
	require.Equal(t, Enqueue, tm.Admit(0, 1, 3, 1000, false).Action)
	v := tm.Admit(0, 1, 3, 1000, false)
	require.Equal(t, Verdict{Action: Drop, Reason: DropHeadroomOverflow}, v)
	require.Equal(t, uint64(1), tm.Stats().Drops[DropHeadroomOverflow])
	// a smaller packet still fits in the remaining 2 cells
	require.Equal(t, Enqueue, tm.Admit(0, 1, 3, 500, false).Action)
	require.Equal(t, uint64(10), tm.IngressHeadroomCells(0, 3))
	require.Equal(t, DropHeadroomOverflow, tm.Admit(0, 1, 3, 64, false).Reason)
}

// Lossless traffic is exempt from the dynamic threshold and, with the
// shared pool exhausted, goes to headroom and raises XOFF instead of
// being dropped.
func TestPFCLosslessNotDroppedWhenSharedFull(t *testing.T) {
	tm := smallTM(t, 4, 1000, func(c *TMConfig) {
		c.PFC.Enabled[3] = true
		c.PFC.XoffBytes, c.PFC.XonBytes = 1<<40, 1<<39 // never by bytes
		c.PFC.HeadroomBytes = 20 * TH5CellBytes
	})
	shared := tm.Buffer().SharedCells()
	require.Equal(t, uint64(1000-4*20), shared)
	// ingress 0 fills the whole shared pool in one egress queue: no DT
	for tm.Buffer().SharedFree() > 0 {
		v := tm.Admit(0, 1, 3, TH5CellBytes, false)
		require.Equal(t, Enqueue, v.Action)
		require.False(t, v.PFCXoff)
	}
	require.Equal(t, shared, tm.QueueCells(1, 3), "one lossless queue took the whole pool")
	// lossy traffic now finds the buffer full
	require.Equal(t, DropBufferFull, tm.Admit(2, 1, 0, 100, false).Reason)
	// lossless traffic from another port goes to its headroom with XOFF
	v := tm.Admit(2, 1, 3, 1000, false)
	require.Equal(t, Enqueue, v.Action)
	require.True(t, v.PFCXoff)
	require.Equal(t, uint64(4), tm.IngressHeadroomCells(2, 3))
	require.Equal(t, tm.UsedCells(), shared+4)
	// releasing the headroom packet sends XON (bytes below XON, no headroom)
	require.True(t, tm.Release(2, 1, 3, 1000))
	require.Zero(t, tm.Buffer().HeadroomUsed())
}

// Port-mode mixes: each port's headroom follows its own speed.
func TestPFCHeadroomPerPortSpeed(t *testing.T) {
	cfg := DefaultTMConfig(4)
	cfg.PFC.Enabled[3], cfg.PFC.Enabled[4] = true, true
	cfg.PFC.PortSpeedsGbps = []int{800, 400, 100, 400}
	tm, err := NewTrafficManager(cfg, 1)
	require.NoError(t, err)
	var reserve uint64
	for p, speed := range cfg.PFC.PortSpeedsGbps {
		want, err := HeadroomMLX5Bytes(speed, 100, 4200)
		require.NoError(t, err)
		b, c := tm.PortHeadroomBytes(p)
		require.Equal(t, want, b, "port %d", p)
		require.Equal(t, (want+253)/254, c)
		reserve += 2 * c
	}
	require.Equal(t, reserve, tm.Buffer().HeadroomCells())
	b800, _ := tm.PortHeadroomBytes(0)
	require.Equal(t, uint64((301+216)*800+11424), b800)

	cfg.PFC.PortSpeedsGbps = []int{400}
	require.ErrorContains(t, cfg.Validate(), "TMConfig.PFC.PortSpeedsGbps has 1 entries for 4 ports")
	cfg.PFC.PortSpeedsGbps = []int{400, 400, 0, 400}
	require.ErrorContains(t, cfg.Validate(), "PFC.PortSpeedsGbps[2]")
	cfg.PFC.PortSpeedsGbps = []int{800, 400, 100, 400}
	cfg.PFC.HeadroomBytes = 100000
	tm, err = NewTrafficManager(cfg, 1)
	require.NoError(t, err)
	b, _ := tm.PortHeadroomBytes(0)
	require.Equal(t, uint64(100000), b, "a fixed headroom applies to every port")
}
