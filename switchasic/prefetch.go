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
// rx watch and, when it holds events, the parser's scratch (1); the
// hosted pipes' fields, the admission counts of every wired port, for
// each port with work not held by pauses its scheduler, its class queues
// and their admission counts, and for each wired port its link to the PHY
// and the PHY (2); then the pipes' ready masks and balancers, the head
// entry of each queued class of the ports with work, and each wired
// port's next credit return and the PHY's link to the wire's far end (3);
// and the descriptors at the heads of those queues (4).
//
// The ingress and egress lines of every wired port, not only of those
// with frames told or queued when the prefetch runs: in the run ahead,
// frames come in on most wired ports and go out of ports that may have had
// no work, and would find those lines out of the caches (docs/speed.md
// has what this bought).
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
		})
		for _, port := range m.wired {
			m.out[port].Prefetch()
			m.phys[port].Prefetch()
		}
	case 3:
		m.prefetchPipes(1)
		m.eachServed(func(port int) {
			for occ := m.occupied[port]; occ != 0; occ &= occ - 1 {
				q := &m.q[port][bits.TrailingZeros8(occ)]
				if q.n > 0 {
					rtlmodel.Prefetch(unsafe.Pointer(&q.buf[q.head]))
				}
			}
		})
		for _, port := range m.wired {
			m.out[port].PrefetchCredits()
			m.phys[port].PrefetchOut()
		}
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

// prefetchPipes names, for every hosted pipe, the lines of its fields
// that stepping reads, and for every wired port its admission counts
// (level 0), then the pipes' ready masks and balancers (1). A traffic
// manager's run takes frames in on most of its wired ports (a port brings
// a 4 KB frame every 83 ns at 400G, and a run covers a few hundred
// nanoseconds), so these are named for all of them, not only for the
// ports whose frames the rx watch had been told of when the prefetch
// runs.
func (m *mmu) prefetchPipes(level int) {
	for _, ip := range m.hosted {
		if level == 0 {
			ip.prefetchFields()
		} else {
			ip.ready.Prefetch()
			rtlmodel.Prefetch(unsafe.Pointer(ip.lb))
		}
	}
	if level == 0 {
		// the traffic manager's count of the port's first classes,
		// which admission reads
		tm := m.tm
		for _, port := range m.wired {
			rtlmodel.Prefetch(unsafe.Pointer(&tm.ingress[port*tm.nClasses]))
		}
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
