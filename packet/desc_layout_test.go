package packet

import (
	"testing"
	"unsafe"
)

// A descriptor is a whole number of cache lines, so descriptors in a slab
// start on line boundaries, and the fields a switch reads at every hop
// share the first line.
func TestDescFillsWholeCacheLines(t *testing.T) {
	const line = 64
	var d Desc
	if s := unsafe.Sizeof(d); s%line != 0 {
		t.Fatalf("Desc is %d bytes, not a multiple of %d: adjust descPad", s, line)
	}
	hot := map[string]uintptr{
		"Kind": unsafe.Offsetof(d.Kind) + unsafe.Sizeof(d.Kind), "Class": unsafe.Offsetof(d.Class) + 1,
		"FrameBytes": unsafe.Offsetof(d.FrameBytes) + 4, "Ingress": unsafe.Offsetof(d.Ingress) + 4,
		"Egress": unsafe.Offsetof(d.Egress) + 4, "TailReady": unsafe.Offsetof(d.TailReady) + 8,
		"FirstBitIn": unsafe.Offsetof(d.FirstBitIn) + 8, "FirstBitOut": unsafe.Offsetof(d.FirstBitOut) + 8,
		"Born": unsafe.Offsetof(d.Born) + 8, "HdrLen": unsafe.Offsetof(d.HdrLen) + 1,
	}
	for name, end := range hot {
		if end > line {
			t.Errorf("%s ends at byte %d, outside the first cache line", name, end)
		}
	}
}

// The header bytes start the second line, and Meta, the transport's
// fields, is one whole line of its own after them: a packet's life touches
// the first line, the header's first line and Meta's, and clearing (Get)
// writes those and no more when the headers fit one line and the tail was
// not used.
func TestDescMetaIsOneLine(t *testing.T) {
	const line = 64
	var d Desc
	if headBytes != line || unsafe.Offsetof(d.Hdr) != line {
		t.Fatalf("the header bytes start at %d, not at the second line", unsafe.Offsetof(d.Hdr))
	}
	if m := unsafe.Offsetof(d.Meta); m%line != 0 || unsafe.Sizeof(d.Meta) != line {
		t.Errorf("Meta is %d bytes at %d, not one line", unsafe.Sizeof(d.Meta), m)
	}
	if s := unsafe.Sizeof(d); s != 6*line {
		t.Errorf("Desc is %d bytes, not 6 lines", s)
	}
}
