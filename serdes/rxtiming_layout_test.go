package serdes

import (
	"testing"
	"unsafe"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// A frame on its link, with the arrival time and the pointer the link
// queues with it, takes half a cache line: a ring of them holds two
// frames a line, and a receiver reading the frames of a window reads half
// as many lines as with a line a frame.
func TestRxFrameOnALinkTakesHalfALine(t *testing.T) {
	type flight struct { // as rtlmodel queues it
		at   rtlmodel.Time
		item RxFrame[*int]
	}
	require.Equal(t, uintptr(32), unsafe.Sizeof(flight{}))
}

// The receiver's timing keeps what a trace of the wire shows: the
// transmitter's times are the receiver's less the propagation. A frame
// whose durations are beyond what it holds is reported, not cut silently.
func TestRxTimingKeepsBothEndsTimes(t *testing.T) {
	w, err := NewWire(default400G())
	require.NoError(t, err)
	for _, bad := range []bool{false, true} {
		ft := w.Transmit(1000, 4096)
		ft.BadFCS = bad
		rx, ok := ft.rx()
		require.True(t, ok)
		require.Equal(t, ft.FirstBitOut, rx.FirstBitIn-w.Propagation())
		require.Equal(t, ft.LastBitOut, rx.LastBitIn()-w.Propagation())
		require.Equal(t, ft.LastBitIn, rx.LastBitIn())
		require.Equal(t, ft.Decoded, rx.Decoded())
		require.Equal(t, bad, rx.BadFCS())
		require.Equal(t, rtlmodel.Time(82_080), rx.Serialisation(), "4104 bytes at 400 Gb/s")
	}
	long := FrameTiming{FirstBitOut: 0, LastBitOut: MaxRxDuration + 1, FirstBitIn: 5, LastBitIn: MaxRxDuration + 6, Decoded: MaxRxDuration + 10, BadFCS: true}
	rx, ok := long.rx()
	require.False(t, ok, "a serialisation past MaxRxDuration is reported")
	require.True(t, rx.BadFCS(), "and does not spill into the FCS verdict")
	require.Equal(t, MaxRxDuration, rx.Serialisation())
}

// A frame too long for a receiver's timing stops the run with an error
// naming the PHY, instead of arriving with its times cut.
func TestPhyLinkRefusesAFrameBeyondTheReceiversTiming(t *testing.T) {
	b := buildPhy(t, default400G(), 800, rtlmodel.Options{}, &macSource{n: 1, bytes: 200_000_000}) // 4 ms at 400 Gb/s
	err := b.e.Run(rtlmodel.Forever)
	require.ErrorContains(t, err, "a 200000000-byte frame takes")
	require.ErrorContains(t, err, "beyond the")
	require.Contains(t, err.Error(), b.phy.Handle().Path())
}
