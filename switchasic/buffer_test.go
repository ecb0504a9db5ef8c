package switchasic

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestTH5BufferDefault(t *testing.T) {
	require.Equal(t, 173268640, TH5BufferBytes) // FACTS 4 [R71]: 173.3 MB
	b, err := NewSharedBuffer(TH5BufferBytes, TH5CellBytes, 0, 0)
	require.NoError(t, err)
	require.Equal(t, uint64(682160), b.TotalCells())
	require.Equal(t, uint64(1), b.CellsFor(1))
	require.Equal(t, uint64(1), b.CellsFor(254))
	require.Equal(t, uint64(2), b.CellsFor(255))
	require.Equal(t, uint64(17), b.CellsFor(4200))
}

func TestSharedBufferQueueLimit(t *testing.T) {
	for _, tc := range []struct {
		shift int
		free  uint64
		want  uint64
	}{
		{0, 1000, 1000},
		{1, 1000, 500},
		{3, 1001, 125},
		{7, 1000, 7},
		{-1, 1000, 2000},
		{-3, 1000, 8000},
		{-8, 1000, 256000},
	} {
		b, err := NewSharedBuffer(tc.free*10, 10, 0, tc.shift)
		require.NoError(t, err)
		require.Equal(t, tc.want, b.QueueLimit(), "shift %d", tc.shift)
	}
}

func TestSharedBufferTakePut(t *testing.T) {
	b, err := NewSharedBuffer(100*254, 254, 10, 0)
	require.NoError(t, err)
	require.Equal(t, uint64(90), b.SharedCells())
	require.Equal(t, uint64(10), b.HeadroomCells())
	b.TakeShared(90)
	b.TakeHeadroom(10)
	require.Equal(t, uint64(100), b.UsedCells())
	require.Zero(t, b.SharedFree())
	require.Panics(t, func() { b.TakeShared(1) })
	require.Panics(t, func() { b.TakeHeadroom(1) })
	b.PutShared(90)
	b.PutHeadroom(10)
	require.Zero(t, b.UsedCells())
	require.Equal(t, uint64(100), b.MaxUsedCells())
	require.Panics(t, func() { b.PutShared(1) })
	require.Panics(t, func() { b.PutHeadroom(1) })
}

func TestNewSharedBufferErrors(t *testing.T) {
	for _, tc := range []struct {
		name          string
		bytes         uint64
		cell          int
		hdrm          uint64
		shift         int
		fieldContains string
	}{
		{"no cell size", 1000, 0, 0, 0, "CellBytes"},
		{"smaller than a cell", 100, 254, 0, 0, "BufferBytes"},
		{"headroom takes all", 2540, 254, 10, 0, "PFC.HeadroomBytes"},
		{"alpha too big", 2540, 254, 0, -9, "AlphaShift"},
		{"alpha too small", 2540, 254, 0, 8, "AlphaShift"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewSharedBuffer(tc.bytes, tc.cell, tc.hdrm, tc.shift)
			require.ErrorContains(t, err, tc.fieldContains)
		})
	}
}
