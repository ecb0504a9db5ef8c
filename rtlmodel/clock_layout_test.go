package rtlmodel

import (
	"testing"
	"unsafe"
)

// A clock is three whole cache lines (its size class aligns it), and what
// an edge reads of it, with the due bitmap of its first 128 components,
// is in the first.
func TestClockEdgeFieldsInItsFirstLine(t *testing.T) {
	var c clock
	if s := unsafe.Sizeof(c); s != 192 {
		t.Errorf("clock is %d bytes, not 192", s)
	}
	if end := unsafe.Offsetof(c.dueInline) + unsafe.Sizeof(c.dueInline[0]); end > 64 {
		t.Errorf("the first due word ends at byte %d, outside the first line", end)
	}
	if end := unsafe.Offsetof(c.index) + 8; end > 64 {
		t.Errorf("index ends at byte %d, outside the first line", end)
	}
}

// The due bitmap lives in the clock while it fits and grows past it.
func TestClockDueBitmapGrowsPastItsInlineWords(t *testing.T) {
	e, ds := newTestEngine(t, Options{}, 1000)
	for i := 0; i < 200; i++ {
		_, err := e.Add(ds[0], "c"+string(rune('A'+i/26))+string(rune('a'+i%26)), fn(func(Edge) Wake { return Never }))
		if err != nil {
			t.Fatal(err)
		}
		c := ds[0].clk
		if want := (i + 64) / 64; len(c.due) != want {
			t.Fatalf("%d components: %d due words, want %d", i+1, len(c.due), want)
		}
		if inline := &c.due[0] == &c.dueInline[0]; inline != (i < 128) {
			t.Fatalf("%d components: due bitmap inline %v", i+1, inline)
		}
	}
}
