package switchasic

import (
	"math/bits"
	"unsafe"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/serdes"
)

// hdrOffset is where a descriptor's header bytes begin.
const hdrOffset = unsafe.Offsetof(packet.Desc{}.Hdr)

// prefetchDesc prefetches what readDescAhead reads: the descriptor's
// first line (rtlmodel.Link.PrefetchWith).
func prefetchDesc(p *packet.Desc) { rtlmodel.Prefetch(unsafe.Pointer(p)) }

// prefetchFrame prefetches what readFrameAhead reads: the descriptor's
// first line and the lines of its headers.
func prefetchFrame(f serdes.RxFrame[*packet.Desc]) {
	d := unsafe.Pointer(f.Frame)
	rtlmodel.Prefetch(d)
	rtlmodel.Prefetch(unsafe.Add(d, hdrOffset))
	rtlmodel.Prefetch(unsafe.Add(d, hdrOffset+packet.HeaderCap/2))
}

// Prefetch names the lines the traffic manager's next evaluation reads
// (rtlmodel.Prefetcher): its fields (level 0); the bitmaps of ports with
// work and of their queued classes (1); for each port with work not held
// by pauses, its scheduler, its class queues and its entries in the
// per-port lists (2); then its link to the PHY, the PHY, and the head
// entry of each queued class (3).
func (m *mmu) Prefetch(level int) {
	switch level {
	case 0:
		rtlmodel.PrefetchLines(unsafe.Pointer(m), unsafe.Sizeof(*m))
		for _, ip := range m.hosted {
			ip.Prefetch(0)
		}
	case 1:
		m.rx.Prefetch()
		for _, ip := range m.hosted {
			ip.Prefetch(1)
		}
		rtlmodel.PrefetchLines(unsafe.Pointer(unsafe.SliceData(m.work)), uintptr(len(m.work))*8)
		rtlmodel.PrefetchLines(unsafe.Pointer(unsafe.SliceData(m.held)), uintptr(len(m.held))*8)
		rtlmodel.PrefetchLines(unsafe.Pointer(unsafe.SliceData(m.occupied)), uintptr(len(m.occupied)))
	case 2:
		m.eachServed(func(port int) {
			rtlmodel.PrefetchLines(unsafe.Pointer(&m.sched[port]), unsafe.Sizeof(m.sched[port]))
			rtlmodel.Prefetch(unsafe.Pointer(&m.out[port]))
			for occ := m.occupied[port]; occ != 0; occ &= occ - 1 {
				rtlmodel.Prefetch(unsafe.Pointer(&m.q[port][bits.TrailingZeros8(occ)]))
			}
		})
	case 3:
		m.eachServed(func(port int) {
			m.out[port].Prefetch()
			m.sw.tx[port].Prefetch()
			for occ := m.occupied[port]; occ != 0; occ &= occ - 1 {
				q := &m.q[port][bits.TrailingZeros8(occ)]
				if q.n > 0 {
					rtlmodel.Prefetch(unsafe.Pointer(&q.buf[q.head]))
				}
			}
		})
	}
}

// eachServed calls fn for each port with work that pauses do not hold.
func (m *mmu) eachServed(fn func(port int)) {
	for w, word := range m.work {
		if w < len(m.held) {
			word &^= m.held[w]
		}
		for ; word != 0; word &= word - 1 {
			fn(w<<6 | bits.TrailingZeros64(word))
		}
	}
}

// Prefetch names the lines the ingress pipe's next evaluation reads
// (rtlmodel.Prefetcher): its fields (level 0); its link to the traffic
// manager, its ready mask, its balancer and the entries of its watch (1);
// and that link's queue entries (2). The frames arriving on its inputs are
// the kernel's (rtlmodel.Link.PrefetchWith).
func (ip *ingressPipe) Prefetch(level int) {
	switch level {
	case 0:
		rtlmodel.PrefetchLines(unsafe.Pointer(ip), unsafe.Sizeof(*ip))
	case 1:
		if ip.out != nil {
			ip.out.Prefetch()
		}
		ip.ready.Prefetch()
		ip.watch.Prefetch()
		if ip.lb != nil {
			rtlmodel.Prefetch(unsafe.Pointer(ip.lb))
		}
	case 2:
		if ip.out != nil {
			ip.out.PrefetchQueue()
		}
	}
}
