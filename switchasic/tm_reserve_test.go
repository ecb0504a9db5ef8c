package switchasic

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A lossy queue's reserve (QueueReserveBytes) takes packets the shared
// pool no longer can: one queue, its dynamic threshold at alpha 256, fills
// the shared pool, and a queue of another port still takes its two
// reserved cells, where without the reserve it takes nothing. Released
// cells go back to the shared pool before the reserve.
func TestQueueReserveTakesWhatTheSharedPoolRefuses(t *testing.T) {
	for _, reserve := range []bool{false, true} {
		tm := smallTM(t, 2, 100, func(c *TMConfig) {
			c.AlphaShift = MinAlphaShift
			if reserve {
				c.QueueReserveBytes = 2 * TH5CellBytes
			}
		})
		b := tm.Buffer()
		want := uint64(100)
		if reserve {
			want = 100 - 2*8*2 // two cells for each of 2 ports × 8 lossy classes
			require.Equal(t, uint64(32), b.ReserveCells())
		}
		require.Equal(t, want, b.SharedCells())
		var first []int
		for {
			v := tm.Admit(1, 0, 0, TH5CellBytes, false)
			if v.Action == Drop {
				require.Equal(t, DropBufferFull, v.Reason)
				break
			}
			first = append(first, v.Bytes)
		}
		taken := 0
		for range 3 {
			if v := tm.Admit(0, 1, 0, TH5CellBytes, false); v.Action == Enqueue {
				taken++
			}
		}
		if !reserve {
			require.Len(t, first, 100, "one queue takes the whole pool")
			require.Zero(t, taken, "and leaves nothing to another")
			continue
		}
		require.Len(t, first, 68+2, "the shared pool and the queue's own reserve")
		require.Equal(t, 2, taken, "the other queue takes its reserve, and no more")
		require.Equal(t, uint64(4), b.ReserveUsed())
		require.Equal(t, uint64(68), b.SharedUsed())
		tm.Release(1, 0, 0, TH5CellBytes)
		require.Equal(t, uint64(67), b.SharedUsed(), "shared cells go back first")
		require.Equal(t, uint64(2), tm.QueueReserveCells(0, 0))
		for range 69 {
			tm.Release(1, 0, 0, TH5CellBytes)
		}
		tm.Release(0, 1, 0, TH5CellBytes)
		tm.Release(0, 1, 0, TH5CellBytes)
		require.Zero(t, tm.UsedCells())
		require.Zero(t, b.ReserveUsed())
	}
}

// A reserve the shared pool cannot hold is refused, naming the field.
func TestQueueReserveLargerThanThePoolIsRefused(t *testing.T) {
	cfg := DefaultTMConfig(2)
	cfg.BufferBytes = 100 * TH5CellBytes
	cfg.QueueReserveBytes = 7 * TH5CellBytes // 2 ports × 8 classes × 7 = 112 cells
	err := cfg.Validate()
	require.ErrorContains(t, err, "TMConfig.QueueReserveBytes 1778: 7 cells for each of 2 ports × 8 lossy classes need 112 cells in all, but the shared pool has 100")
	_, err = NewTrafficManager(cfg, 1)
	require.ErrorContains(t, err, "QueueReserveBytes")
}

// A trimmed header goes to its trim class's queue, and when the shared
// pool is full it takes that queue's reserve: with one cell reserved a
// queue, a packet the full pool refuses is trimmed, where without the
// reserve it is dropped.
func TestTrimmedHeaderTakesTheTrimQueuesReserve(t *testing.T) {
	for _, reserve := range []bool{false, true} {
		tm := smallTM(t, 2, 100, func(c *TMConfig) {
			c.AlphaShift = MinAlphaShift
			c.Trim = TrimConfig{Enabled: true, TrimBytes: 64, TrimClass: 7, Trimmable: lowSixTrimmable}
			if reserve {
				c.QueueReserveBytes = TH5CellBytes
			}
		})
		for tm.Admit(1, 0, 0, TH5CellBytes, false).Action != Drop {
		}
		require.Zero(t, tm.Buffer().SharedFree())
		v := tm.Admit(0, 1, 0, 2*TH5CellBytes, false)
		if !reserve {
			require.Equal(t, Drop, v.Action)
			require.Equal(t, DropBufferFull, v.Reason)
			continue
		}
		require.Equal(t, Trim, v.Action)
		require.Equal(t, 7, v.Class)
		require.Equal(t, uint64(1), tm.QueueReserveCells(1, 7))
		tm.Release(0, 1, 7, 64)
		require.Zero(t, tm.QueueReserveCells(1, 7))
	}
}
