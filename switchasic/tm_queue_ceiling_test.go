package switchasic

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The ceiling is where admission really stops a lone lossy queue: a
// queue fed frame after frame with nothing draining it ends within a
// frame of it, for alpha 1, 1/4 and 4 and three frame sizes, with and
// without a lossless class's headroom taken out of the buffer, and with
// and without a queue reserve (less the cells of the reserve no whole
// frame fits in).
func TestLossyQueueCeilingIsWhereALoneQueueStops(t *testing.T) {
	for _, shift := range []int{0, 2, -2} {
		for _, lossless := range []bool{false, true} {
			for _, frame := range []int{1100, 4160, 9216} {
				for _, reserve := range []uint64{0, 20_000} {
					c := DefaultTMConfig(8)
					c.BufferBytes = 4_000_000
					c.AlphaShift = shift
					c.QueueReserveBytes = reserve
					if lossless {
						c.PFC.Enabled[3] = true
					}
					ceiling, err := c.LossyQueueCeilingBytes(frame)
					require.NoError(t, err)
					tm, err := NewTrafficManager(c, 1)
					require.NoError(t, err)
					step := tm.buf.CellsFor(frame) * uint64(c.CellBytes) // what a frame takes, in whole cells
					var held uint64
					for tm.Admit(0, 1, 0, frame, false).Action == Enqueue {
						held += step
					}
					n := tm.buf.CellsFor(frame)
					unfit := tm.lim.queueResv % n * uint64(c.CellBytes) // reserve cells no whole frame fits in
					require.LessOrEqual(t, held, ceiling, "alpha shift %d, lossless %v, reserve %d", shift, lossless, reserve)
					require.GreaterOrEqual(t, held+step+unfit, ceiling, "alpha shift %d, lossless %v, reserve %d: the queue stopped a frame or more short", shift, lossless, reserve)
				}
			}
		}
	}
	_, err := DefaultTMConfig(8).LossyQueueCeilingBytes(0)
	require.Error(t, err)
}
