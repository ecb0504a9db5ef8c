package switchasic

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

type heldPacket struct {
	ingress, egress, class, bytes int
}

// checkTMInvariants compares the traffic manager with a shadow list of the
// packets it holds: every queue's and ingress pair's bytes and cells, the
// port totals, the pools, and cells used equal to the sum over queues.
func checkTMInvariants(t *testing.T, tm *TrafficManager, held []heldPacket) {
	t.Helper()
	cfg := tm.Config()
	P, C := cfg.Ports, cfg.Classes
	qb := make([]uint64, P*C)
	qc := make([]uint64, P*C)
	ib := make([]uint64, P*C)
	for _, h := range held {
		n := tm.Buffer().CellsFor(h.bytes)
		qb[h.egress*C+h.class] += uint64(h.bytes)
		qc[h.egress*C+h.class] += n
		ib[h.ingress*C+h.class] += uint64(h.bytes)
	}
	var sumCells, sumHdrm, sumResv uint64
	for p := 0; p < P; p++ {
		var port uint64
		for c := 0; c < C; c++ {
			if tm.QueueBytes(p, c) != qb[p*C+c] || tm.QueueCells(p, c) != qc[p*C+c] || tm.IngressBytes(p, c) != ib[p*C+c] {
				require.Failf(t, "queue mismatch", "(%d,%d): queue %d B/%d cells want %d/%d; ingress %d B want %d",
					p, c, tm.QueueBytes(p, c), tm.QueueCells(p, c), qb[p*C+c], qc[p*C+c], tm.IngressBytes(p, c), ib[p*C+c])
			}
			port += qb[p*C+c]
			sumCells += qc[p*C+c]
			h := tm.IngressHeadroomCells(p, c)
			_, hc := tm.PortHeadroomBytes(p)
			if h > hc || (h > 0 && !tm.Lossless(c)) {
				require.Failf(t, "headroom", "(%d,%d) holds %d headroom cells", p, c, h)
			}
			sumHdrm += h
			r := tm.QueueReserveCells(p, c)
			if r > tm.lim.queueResv || r > qc[p*C+c] || (r > 0 && tm.Lossless(c)) {
				require.Failf(t, "reserve", "(%d,%d) holds %d reserve cells of %d, in %d cells", p, c, r, tm.lim.queueResv, qc[p*C+c])
			}
			sumResv += r
		}
		require.Equal(t, port, tm.PortBytes(p))
	}
	b := tm.Buffer()
	require.Equal(t, sumCells, tm.UsedCells(), "cells used == sum over queues")
	require.Equal(t, sumHdrm, b.HeadroomUsed())
	require.Equal(t, sumResv, b.ReserveUsed())
	require.LessOrEqual(t, b.ReserveUsed(), b.ReserveCells())
	require.Equal(t, b.TotalCells(), tm.UsedCells()+tm.FreeCells())
	require.LessOrEqual(t, b.SharedUsed(), b.SharedCells())
	require.LessOrEqual(t, b.HeadroomUsed(), b.HeadroomCells())
	s := tm.Stats()
	require.Equal(t, uint64(len(held)), s.Enqueued+s.Trimmed-s.Released)
}

// Property: under random admissions and releases, accounting is
// conserved at every step and returns to empty.
func TestTMConservationProperty(t *testing.T) {
	configs := []struct {
		name      string
		edit      func(*TMConfig)
		exercised func(*testing.T, TMStats) // the run reached the paths it is for
	}{
		{"lossy", nil, func(t *testing.T, s TMStats) {
			require.Positive(t, s.Drops[DropQueueLimit])
		}},
		{"lossy alpha 4 trim", func(c *TMConfig) {
			c.AlphaShift = -2
			c.Trim = TrimConfig{Enabled: true, TrimBytes: 64, TrimClass: 7, Trimmable: lowSixTrimmable}
		}, func(t *testing.T, s TMStats) {
			require.Positive(t, s.Trimmed)
			require.Positive(t, s.Drops[DropBufferFull])
		}},
		{"lossless and trim", func(c *TMConfig) {
			c.PFC.Enabled[3], c.PFC.Enabled[4] = true, true
			c.PFC.XoffBytes, c.PFC.XonBytes, c.PFC.HeadroomBytes = 20000, 12000, 12000
			c.Trim = TrimConfig{Enabled: true, TrimBytes: 128, TrimClass: 6, Trimmable: lowSixTrimmable}
			c.WRED[0] = WREDConfig{Enabled: true, KminBytes: 1000, KmaxBytes: 20000, PmaxQ: 32768}
		}, func(t *testing.T, s TMStats) {
			require.Positive(t, s.Trimmed)
			require.Positive(t, s.Marked)
			require.Positive(t, s.Xoff)
			require.Positive(t, s.Drops[DropHeadroomOverflow])
		}},
	}
	for _, cf := range configs {
		for seed := uint64(1); seed <= 8; seed++ {
			t.Run(fmt.Sprintf("%s/seed%d", cf.name, seed), func(t *testing.T) {
				tm := smallTM(t, 6, 2000, cf.edit)
				rng := rtlmodel.NewRNG(seed, "tm-conservation")
				var held []heldPacket
				var dropped, xoff, xon uint64
				for step := 0; step < 6000; step++ {
					if len(held) > 0 && rng.Intn(100) < 45 {
						i := rng.Intn(len(held))
						h := held[i]
						held[i] = held[len(held)-1]
						held = held[:len(held)-1]
						if tm.Release(h.ingress, h.egress, h.class, h.bytes) {
							xon++
						}
					} else {
						in, eg, cl := rng.Intn(6), rng.Intn(6), rng.Intn(8)
						bytes := 64 + rng.Intn(4200)
						v := tm.Admit(in, eg, cl, bytes, rng.Intn(2) == 0)
						switch v.Action {
						case Drop:
							require.NotEqual(t, DropNone, v.Reason)
							require.Zero(t, v.Cells)
							dropped++
						case Enqueue:
							require.Equal(t, cl, v.Class)
							require.Equal(t, bytes, v.Bytes)
						case Trim:
							require.Equal(t, tm.Config().Trim.TrimClass, v.Class)
						}
						if v.Action != Drop {
							require.Equal(t, int(tm.Buffer().CellsFor(v.Bytes)), v.Cells)
							held = append(held, heldPacket{in, eg, v.Class, v.Bytes})
						}
						if v.PFCXoff {
							xoff++
						}
					}
					checkTMInvariants(t, tm, held)
				}
				for len(held) > 0 {
					h := held[len(held)-1]
					held = held[:len(held)-1]
					if tm.Release(h.ingress, h.egress, h.class, h.bytes) {
						xon++
					}
				}
				checkTMInvariants(t, tm, nil)
				require.Zero(t, tm.UsedCells())
				s := tm.Stats()
				cf.exercised(t, s)
				require.Equal(t, dropped, s.Dropped())
				require.Equal(t, xoff, s.Xoff)
				require.Equal(t, xon, s.Xon)
				require.Equal(t, s.Xoff, s.Xon, "every XOFF is followed by an XON once drained")
				for p := 0; p < 6; p++ {
					for c := 0; c < 8; c++ {
						require.False(t, tm.Paused(p, c))
					}
				}
			})
		}
	}
}
