package switchasic

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// A quantum is 512 bit times: 1.28 ns at 400G (FACTS 2.7).
func TestPauseQuantum(t *testing.T) {
	for _, tc := range []struct {
		speed int
		want  rtlmodel.Time
	}{{400, 1280}, {800, 640}, {200, 2560}, {100, 5120}, {50, 10240}, {25, 20480}, {10, 51200}} {
		q, err := PauseQuantum(tc.speed)
		require.NoError(t, err)
		require.Equal(t, tc.want, q, "%d Gb/s", tc.speed)
		// the same from the exact rational path
		p, exact, err := PauseTime(1, uint64(tc.speed)*1e9, 1)
		require.NoError(t, err)
		require.True(t, exact)
		require.Equal(t, tc.want, p)
	}
	require.Equal(t, 1.28, rtlmodel.Time(1280).Nanoseconds())
	_, err := PauseQuantum(3)
	require.ErrorContains(t, err, "not whole")
	_, err = PauseQuantum(0)
	require.Error(t, err)
}

func TestPauseTime(t *testing.T) {
	// the longest pause at 400G: 65535 · 1280 ps
	d, exact, err := PauseTime(MaxPauseQuanta, 400e9, 1)
	require.NoError(t, err)
	require.True(t, exact)
	require.Equal(t, rtlmodel.Time(65535*1280), d)
	// 0 quanta: resume
	d, _, err = PauseTime(0, 400e9, 1)
	require.NoError(t, err)
	require.Zero(t, d)
	// a rate with no whole-ps quantum: 3 Gb/s, 512/3 ns = 170666.67 ps
	d, exact, err = PauseTime(1, 3e9, 1)
	require.NoError(t, err)
	require.False(t, exact)
	require.Equal(t, rtlmodel.Time(170667), d)
	// three quanta at 3 Gb/s are exactly 512 ns
	d, exact, err = PauseTime(3, 3e9, 1)
	require.NoError(t, err)
	require.True(t, exact)
	require.Equal(t, 512*rtlmodel.Nanosecond, d)
	// a rational rate: 400G·(256/257)
	d, exact, err = PauseTime(257, 400e9*256, 257)
	require.NoError(t, err)
	require.True(t, exact)
	require.Equal(t, rtlmodel.Time(257*1280*257/256), d)
	_, _, err = PauseTime(1, 0, 1)
	require.Error(t, err)
}

func TestPauseQuantaFor(t *testing.T) {
	for _, tc := range []struct {
		d    rtlmodel.Time
		want uint16
	}{{0, 0}, {1, 1}, {1280, 1}, {1281, 2}, {rtlmodel.Microsecond, 782}, {rtlmodel.Forever, MaxPauseQuanta}} {
		got, err := PauseQuantaFor(tc.d, 400)
		require.NoError(t, err)
		require.Equal(t, tc.want, got, "%v", tc.d)
	}
}
