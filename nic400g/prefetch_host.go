package nic400g

import (
	"unsafe"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// prefetch names, one level of pointers at a time, what a payload read or
// a completion write reads of the PCIe host model (NIC.Prefetch levels 1
// to 4): the host side (level 0 here), the host model (1), its PCIe link
// (2), and the busy intervals each direction starts from and ends with
// (3). Every packet the NIC sends or places goes through them, and they
// are out of the caches between the NIC's runs.
func (p *PCIeHostSide) prefetch(level int) {
	switch level {
	case 0:
		rtlmodel.PrefetchLines(unsafe.Pointer(p), unsafe.Sizeof(*p))
	case 1:
		rtlmodel.PrefetchLines(unsafe.Pointer(p.h), unsafe.Sizeof(*p.h))
	case 2:
		rtlmodel.PrefetchLines(unsafe.Pointer(p.h.link), unsafe.Sizeof(*p.h.link))
	case 3:
		p.h.link.up.prefetchSpans()
		p.h.link.down.prefetchSpans()
	}
}

// prefetchSpans prefetches the first live busy interval, which pruning
// reads, and the last, which a transfer after it reads.
func (d *pcieDir) prefetchSpans() {
	if d.head < len(d.iv) {
		rtlmodel.Prefetch(unsafe.Pointer(&d.iv[d.head]))
		rtlmodel.Prefetch(unsafe.Pointer(&d.iv[len(d.iv)-1]))
	}
}
