package serdes

import (
	"testing"
	"unsafe"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// A frame on its link, with the arrival time and the pointer the link
// queues with it, takes 40 bytes: a ring of them fills 1.6 frames a line
// instead of one, and a receiver reading the frames of a window reads
// fewer lines.
func TestRxFrameOnALinkTakes40Bytes(t *testing.T) {
	type flight struct { // as rtlmodel queues it
		at   rtlmodel.Time
		item RxFrame[*int]
	}
	if s := unsafe.Sizeof(flight{}); s != 40 {
		t.Errorf("a queued RxFrame is %d bytes, not 40", s)
	}
}

// The receiver's timing keeps what a trace of the wire shows: the
// transmitter's times are the receiver's less the propagation, and a
// degraded wire's longer serialisation is carried as it is.
func TestRxTimingKeepsBothEndsTimes(t *testing.T) {
	w, err := NewWire(default400G())
	if err != nil {
		t.Fatal(err)
	}
	ft := w.Transmit(1000, 4096)
	rx := ft.rx()
	if rx.FirstBitIn-w.Propagation() != ft.FirstBitOut || rx.LastBitIn() != ft.LastBitIn ||
		rx.LastBitIn()-w.Propagation() != ft.LastBitOut || rx.Decoded != ft.Decoded || rx.BadFCS != ft.BadFCS {
		t.Errorf("receiver's timing %+v does not give the frame's %+v", rx, ft)
	}
	ft = FrameTiming{FirstBitOut: 0, LastBitOut: 1 << 40}
	if got := ft.rx().Serialisation; got != 1<<32-1 {
		t.Errorf("a serialisation past 32 bits saturates at 2^32-1, got %d", got)
	}
}
