package serdes

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// TestPhyLinkHotLines checks the layout a frame's take relies on: a
// PhyLink is a whole number of cache lines (so, allocated alone, it starts
// one), and what take and the wire read ends in its fourth line.
func TestPhyLinkHotLines(t *testing.T) {
	require.Zero(t, unsafe.Sizeof(PhyLink[*int]{})%64, "PhyLink size")
	require.Equal(t, unsafe.Sizeof(PhyLink[*int]{}), unsafe.Sizeof(PhyLink[struct{ a, b uint64 }]{}), "a PhyLink's size does not depend on its frame type")
	require.LessOrEqual(t, phyHotBytes, uintptr(4*64))
	require.Greater(t, phyHotBytes, uintptr(3*64))
}
