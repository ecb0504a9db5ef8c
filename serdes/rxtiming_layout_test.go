package serdes

import (
	"testing"
	"unsafe"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// A frame on its link, with the arrival time and the pointer the link
// queues with it, fills one cache line.
func TestRxFrameOnALinkFillsOneLine(t *testing.T) {
	type flight struct { // as rtlmodel queues it
		at   rtlmodel.Time
		item RxFrame[*int]
	}
	if s := unsafe.Sizeof(flight{}); s != 64 {
		t.Errorf("a queued RxFrame is %d bytes, not 64", s)
	}
}
