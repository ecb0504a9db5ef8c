package switchasic

import (
	"math/bits"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// The traffic manager hosts the ingress pipes (ingressPipe) in every
// load-balancing mode but DLB: DLB's balancers read the port bands the
// traffic manager publishes, as of the edge a frame reaches the pipe,
// which a pipe stepped IngressCycles later would read as of that later
// edge. Hosted, a switch's evaluations per packet are one fewer, and its
// pipes' fields, links and watches are state its partition no longer
// reads at each of their evaluations.

// hostsPipes reports whether the traffic manager runs the ingress pipes:
// outside DLB, and for a switch whose ports and pipes fit rxEntry (the
// 51.2T chip's 512 lanes do many times over; a larger plan keeps its pipes
// apart).
func (sw *Switch) hostsPipes() bool {
	return sw.cfg.LB != DLB && !sw.cfg.pipesApart && len(sw.ports) < 1<<11 && sw.cfg.Pipes.Pipes <= 0xFF
}

// A port reports to the traffic manager's rx watch under its own number;
// the MMU's rxOf[port] is rxEntry(pipe, k), the pipe the port feeds and
// the port's input number k there, which rxPipe and rxInput take apart.
// Pipe fits in 8 bits and k, below the port count, in 12 (hostsPipes).
func rxEntry(pipe, k int) uint32 { return uint32(pipe<<12 | k) }

func rxPipe(e uint32) int  { return int(e >> 12 & 0xFF) }
func rxInput(e uint32) int { return int(e & 0xFFF) }

// stepPipes takes in the hosted pipes' arrivals due by now and steps each
// pipe with a frame delivered, in pipe order; the packets they pass go to
// admission at once. It reports whether a pipe has a frame left for the
// next edge. The pipes with frames delivered are a bitmap of the MMU's, so
// that an evaluation reads only their fields: a pipe whose step leaves
// nothing has cleared its ready mask, and leaves the bitmap.
func (m *mmu) stepPipes(now rtlmodel.Time) bool {
	for {
		port, ok := m.rx.Next(now)
		if !ok {
			break
		}
		e := m.rxOf[port]
		p := rxPipe(e)
		m.hosted[p].ready.Set(rxInput(e))
		m.pipesReady.Set(p)
	}
	more := false
	for w, word := range m.pipesReady {
		for word != 0 {
			b := bits.TrailingZeros64(word)
			word &^= 1 << uint(b)
			p := w<<6 | b
			if m.hosted[p].step(now) {
				more = true
			} else {
				m.pipesReady.Clear(p)
			}
		}
	}
	return more
}
