package switchasic

import "testing"

func BenchmarkLookup(b *testing.B) {
	ft := NewForwardingTable(DefaultMaxEndpoints)
	for p := range 128 {
		if _, err := ft.AddGroup([]int{p}); err != nil {
			b.Fatal(err)
		}
	}
	for dst := uint32(0); dst < DefaultMaxEndpoints; dst++ {
		if err := ft.SetRoute(dst, int(dst%128)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	var sink int
	dst := uint32(1)
	for b.Loop() {
		dst = dst*1664525 + 1013904223 // LCG: random destinations, defeating the cache
		g, _ := ft.Lookup(dst % DefaultMaxEndpoints)
		sink += g
	}
	_ = sink
}
