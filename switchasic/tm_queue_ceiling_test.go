package switchasic

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The ceiling is where admission really stops a lone lossy queue: a
// queue fed frame after frame with nothing draining it ends within a
// frame of it, for alpha 1, 1/4 and 4 and three frame sizes, with and
// without a lossless class's headroom taken out of the buffer.
func TestLossyQueueCeilingIsWhereALoneQueueStops(t *testing.T) {
	for _, shift := range []int{0, 2, -2} {
		for _, lossless := range []bool{false, true} {
			for _, frame := range []int{1100, 4160, 9216} {
				c := DefaultTMConfig(8)
				c.BufferBytes = 4_000_000
				c.AlphaShift = shift
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
				require.LessOrEqual(t, held, ceiling, "alpha shift %d, lossless %v", shift, lossless)
				require.Greater(t, held+step, ceiling, "alpha shift %d, lossless %v: the queue stopped a frame or more short", shift, lossless)
			}
		}
	}
	_, err := DefaultTMConfig(8).LossyQueueCeilingBytes(0)
	require.Error(t, err)
}
