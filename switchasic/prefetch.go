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
// first line and the first line of its headers. The second holds headers
// only for a message's first packet (RETH), and a prefetch of it for every
// other packet would only bring an untouched line into the caches.
func prefetchFrame(f serdes.RxFrame[*packet.Desc]) {
	d := unsafe.Pointer(f.Frame)
	rtlmodel.Prefetch(d)
	rtlmodel.Prefetch(unsafe.Add(d, hdrOffset))
}

// Prefetch names the lines the traffic manager's next evaluation reads
// (rtlmodel.Prefetcher): its fields (level 0); the bitmaps of ports with
// work and of their queued classes, its lists of links to the PHYs and of
// PHYs, the admission state's first lines, the head of the hosted pipes'
// rx watch and, when it holds events, the parser's scratch (1); the fields
// of the pipes those events are for and the admission counts of their
// ports, and for each port with work not held by pauses, its scheduler,
// its class queues and their admission counts, its link to the PHY and
// the PHY (2); then those pipes' ready masks and balancers, and each such
// port's next credit return, the PHY's link to the wire's far end and the
// head entry of each queued class (3); and the descriptors at the heads of
// those queues (4).
func (m *mmu) Prefetch(level int) {
	switch level {
	case 0:
		rtlmodel.PrefetchLines(unsafe.Pointer(m), unsafe.Sizeof(*m))
	case 1:
		rtlmodel.PrefetchLines(unsafe.Pointer(m.tm), unsafe.Offsetof(m.tm.curves))
		m.rx.Prefetch()
		if m.rx.Pending() > 0 {
			sc := m.hosted[0].scratch
			rtlmodel.PrefetchLines(unsafe.Pointer(sc), unsafe.Sizeof(*sc))
		}
		rtlmodel.PrefetchLines(unsafe.Pointer(unsafe.SliceData(m.work)), uintptr(len(m.work))*8)
		rtlmodel.PrefetchLines(unsafe.Pointer(unsafe.SliceData(m.held)), uintptr(len(m.held))*8)
		rtlmodel.PrefetchLines(unsafe.Pointer(unsafe.SliceData(m.occupied)), uintptr(len(m.occupied)))
		rtlmodel.PrefetchLines(unsafe.Pointer(unsafe.SliceData(m.out)), uintptr(len(m.out))*8)
		rtlmodel.PrefetchLines(unsafe.Pointer(unsafe.SliceData(m.phys)), uintptr(len(m.phys))*8)
	case 2:
		m.prefetchPipes(0)
		m.eachServed(func(port int) {
			rtlmodel.PrefetchLines(unsafe.Pointer(&m.sched[port]), unsafe.Sizeof(m.sched[port]))
			for occ := m.occupied[port]; occ != 0; occ &= occ - 1 {
				c := bits.TrailingZeros8(occ)
				rtlmodel.Prefetch(unsafe.Pointer(&m.q[port][c]))
				rtlmodel.Prefetch(unsafe.Pointer(&m.tm.queues[port*m.tm.nClasses+c]))
			}
			m.out[port].Prefetch()
			m.phys[port].Prefetch()
		})
	case 3:
		m.prefetchPipes(1)
		m.eachServed(func(port int) {
			m.out[port].PrefetchCredits()
			m.phys[port].PrefetchOut()
			for occ := m.occupied[port]; occ != 0; occ &= occ - 1 {
				q := &m.q[port][bits.TrailingZeros8(occ)]
				if q.n > 0 {
					rtlmodel.Prefetch(unsafe.Pointer(&q.buf[q.head]))
				}
			}
		})
	case 4:
		m.eachServed(func(port int) {
			for occ := m.occupied[port]; occ != 0; occ &= occ - 1 {
				q := &m.q[port][bits.TrailingZeros8(occ)]
				for i := 0; i < min(q.n, 2); i++ {
					rtlmodel.Prefetch(unsafe.Pointer(q.buf[(q.head+i)&(len(q.buf)-1)].p))
				}
			}
		})
	}
}

// pipesAhead is how many of the rx watch's events prefetchPipes reads: a
// pipe takes one or two frames per cycle, and the events a traffic manager
// takes in one run of its partition are mostly of a few pipes.
const pipesAhead = 8

// prefetchPipes names, for the hosted pipes the first events of the rx
// watch are for, the lines of their fields stepping reads and the
// admission counts of the events' ports (level 0), then the pipes' ready
// masks and balancers (1).
func (m *mmu) prefetchPipes(level int) {
	for i, n := 0, min(m.rx.Pending(), pipesAhead); i < n; i++ {
		port := m.rx.PendingIndex(i)
		ip := m.hosted[rxPipe(m.rxOf[port])]
		if level == 0 {
			ip.prefetchFields()
			// the traffic manager's count of the port's first classes,
			// which admission reads
			tm := m.tm
			rtlmodel.Prefetch(unsafe.Pointer(&tm.ingress[port*tm.nClasses]))
			continue
		}
		ip.ready.Prefetch()
		rtlmodel.Prefetch(unsafe.Pointer(ip.lb))
	}
}

// prefetchFields names the lines of the fields stepping a pipe and
// accepting a frame read (those before badFCS).
func (ip *ingressPipe) prefetchFields() {
	rtlmodel.PrefetchLines(unsafe.Pointer(ip), unsafe.Offsetof(ip.badFCS))
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
		ip.prefetchFields()
		rtlmodel.PrefetchLines(unsafe.Pointer(&ip.h), unsafe.Sizeof(*ip)-unsafe.Offsetof(ip.h))
	case 1:
		ip.out.Prefetch()
		ip.ready.Prefetch()
		ip.watch.Prefetch()
		rtlmodel.Prefetch(unsafe.Pointer(ip.lb))
	case 2:
		ip.out.PrefetchQueue()
	}
}
