package nic400g

import (
	"unsafe"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/serdes"
)

// Where readRxAhead's lines of a descriptor begin.
const (
	hdrOffset  = unsafe.Offsetof(packet.Desc{}.Hdr)
	metaOffset = unsafe.Offsetof(packet.Desc{}.Meta) // one line (packet.TestDescMetaIsOneLine)
)

// prefetchRx prefetches what readRxAhead reads of an arriving frame: its
// descriptor's first line, the first line of its headers (the second
// holds some only for a message's first packet) and its transport fields
// (rtlmodel.Link.PrefetchWith).
func prefetchRx(f serdes.RxFrame[*packet.Desc]) {
	d := unsafe.Pointer(f.Frame)
	rtlmodel.Prefetch(d)
	rtlmodel.Prefetch(unsafe.Add(d, hdrOffset))
	rtlmodel.Prefetch(unsafe.Add(d, metaOffset))
}

// Prefetch names the lines the NIC's next evaluation reads
// (rtlmodel.Prefetcher): its own fields after the configuration (level 0);
// its links, PHY, timer heap, transmit ring, control frames and the
// counters every packet moves (1); the
// queue entries on its links, the next credit return of its link to the
// PHY, the PHY's link to the wire's far end and the slots of the QPs
// whose transmit turn and timer come first (2); then those QPs' states
// and the slot of the PHY's link the next frame goes to (3). The PCIe
// host model's lines come a level at a time from level 1 to 4
// (PCIeHostSide.prefetch).
func (n *NIC) Prefetch(level int) {
	switch level {
	case 0:
		p := unsafe.Pointer(n)
		rtlmodel.PrefetchLines(unsafe.Add(p, unsafe.Offsetof(n.e)), unsafe.Sizeof(*n)-unsafe.Offsetof(n.e))
	case 1:
		rtlmodel.PrefetchLines(unsafe.Pointer(n.st), nicHotStats)
		if n.tmpl != nil {
			rtlmodel.PrefetchLines(unsafe.Pointer(n.tmpl), unsafe.Sizeof(*n.tmpl))
		}
		n.in.Prefetch()
		n.out.Prefetch()
		if n.doorbells != nil {
			n.doorbells.Prefetch()
		}
		n.phy.Prefetch()
		if len(n.timers.s) > 0 {
			rtlmodel.Prefetch(unsafe.Pointer(&n.timers.s[0]))
		}
		if n.ring.Len() > 0 {
			rtlmodel.Prefetch(unsafe.Pointer(n.ring.Front()))
		}
		if n.ctrl.Len() > 0 {
			rtlmodel.Prefetch(unsafe.Pointer(n.ctrl.Front()))
		}
		if n.pcie != nil {
			n.pcie.prefetch(0)
		}
	case 2, 3:
		if n.pcie != nil {
			n.pcie.prefetch(level - 1)
		}
		if level == 2 {
			n.in.PrefetchQueue()
			n.out.PrefetchQueue()
			n.out.PrefetchCredits()
			n.phy.PrefetchOut()
		} else {
			n.phy.PrefetchOutQueue()
		}
		if n.ring.Len() > 0 {
			n.prefetchQP(*n.ring.Front(), level)
		}
		if len(n.timers.s) > 0 {
			n.prefetchQP(n.timers.s[0].qp, level)
		}
	case 4:
		if n.pcie != nil {
			n.pcie.prefetch(3)
		}
	}
}

// prefetchQP prefetches, for level 2, QP id's slot in the list of active
// states, and for level 3 the state it points to.
func (n *NIC) prefetchQP(id uint32, level int) {
	if int(id) >= len(n.qps) {
		return
	}
	if level == 2 {
		rtlmodel.Prefetch(unsafe.Pointer(&n.qps[id]))
	} else if q := n.qps[id]; q != nil {
		rtlmodel.PrefetchLines(unsafe.Pointer(q), unsafe.Sizeof(*q))
	}
}
