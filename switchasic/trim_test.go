package switchasic

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// lowSixTrimmable makes classes 0 to 5 trim-eligible and leaves 6 and 7,
// the control and trim classes, to be dropped whole.
var lowSixTrimmable = [MaxClasses]bool{true, true, true, true, true, true}

// With the default trim configuration only class 0, data, is trimmed: a
// refused control frame of class 6 (an ACK_CC of 102 B, longer than the
// 64 B trim size) is dropped whole with the reason of its refusal and is
// not counted as a trim.
func TestTrimOnlyTrimmableClasses(t *testing.T) {
	tm := smallTM(t, 2, 1000, func(c *TMConfig) {
		c.Trim = DefaultTrimConfig()
		c.Trim.Enabled = true
	})
	require.Equal(t, [MaxClasses]bool{0: true}, tm.Config().Trim.Trimmable)
	for tm.Admit(0, 1, 0, 4096, false).Action == Enqueue {
	}
	for tm.Admit(0, 1, 6, 102, false).Action == Enqueue {
	}
	s := tm.Stats()
	require.Equal(t, uint64(1), s.Trimmed, "the data packet only")
	require.Equal(t, uint64(1), s.Drops[DropQueueLimit], "the control frame")
	require.Equal(t, uint64(64), tm.QueueBytes(1, 7))

	require.Equal(t, Verdict{Action: Drop, Reason: DropQueueLimit}, tm.Admit(0, 1, 6, 102, false))
	require.Equal(t, Verdict{Action: Trim, Cells: 1, Class: 7, Bytes: 64}, tm.Admit(0, 1, 0, 4096, false))
	s = tm.Stats()
	require.Equal(t, uint64(2), s.Trimmed)
	require.Equal(t, uint64(2), s.Drops[DropQueueLimit])
	require.Equal(t, uint64(128), tm.QueueBytes(1, 7))

	// a class made trim-eligible is trimmed like data
	tm = smallTM(t, 2, 1000, func(c *TMConfig) {
		c.Trim = DefaultTrimConfig()
		c.Trim.Enabled, c.Trim.Trimmable[6] = true, true
	})
	for tm.Admit(0, 1, 6, 102, false).Action == Enqueue {
	}
	require.Equal(t, uint64(1), tm.Stats().Trimmed)
	require.Zero(t, tm.Stats().Dropped())
}
