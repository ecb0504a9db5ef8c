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
	}
	for name, end := range hot {
		if end > line {
			t.Errorf("%s ends at byte %d, outside the first cache line", name, end)
		}
	}
}
