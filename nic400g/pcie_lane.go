package nic400g

import (
	"math/bits"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// pcieTime is an exact time: ps + frac/div picoseconds, div being the
// denominator of the link's byte time (shared by both directions, so
// times from either compare and carry exactly).
type pcieTime struct {
	ps   rtlmodel.Time
	frac uint64
}

func (a pcieTime) less(b pcieTime) bool { return a.ps < b.ps || (a.ps == b.ps && a.frac < b.frac) }

// pcieSpan is a reserved busy interval [start, end) of one direction.
type pcieSpan struct{ start, end pcieTime }

// pcieDir is one direction of a PCIe link: the serialiser of TLP bytes
// at an exact rate (one byte lasts k/div ps), kept as a sorted list of
// the busy intervals reserved so far. Transfers reserved at the current
// time append to the last interval and so serialise back to back with
// the fractional picosecond carried, like serdes.Serializer; a transfer
// reserved for a later start (read completions, which wait for the
// completer) leaves a gap that a later reservation with an earlier start
// (a doorbell) may fill if it fits whole, so the order of reservation does
// not hold back traffic that the link would have sent first. A transfer
// is never split around a reserved interval, so a long transfer that does
// not fit a gap waits after it while a later, shorter one may use it.
//
// PCIe ordering (U, the specification's ordering table): posted writes
// of one direction go in the order they are reserved, and no request or
// completion passes a posted write, so a CQE never overtakes its data and
// a read request pushes earlier writes. The model keeps the requested
// start and the end of the latest posted write: a posted write starts no
// earlier than that end, and any other transfer whose requested start is
// at or after that write's requested start does too. This is exact while
// posted writes are requested in nondecreasing start order and other
// transfers request starts no earlier than the latest posted write's, as
// every caller in this package does (posted writes at the call time or a
// fixed MMIO delay after it, completions a round trip later).
//
// Intervals that end at or before the current time are dropped. Steady
// state allocates nothing.
type pcieDir struct {
	k, div uint64
	iv     []pcieSpan // sorted, disjoint, non-touching; iv[head:] live
	head   int
	last   pcieTime // end of the latest-ending reservation
	// requested start and end of the latest posted write
	postedReq, postedEnd pcieTime
	tlps                 uint64
	bytes                uint64
}

func newPCIeDir(k, div uint64) pcieDir {
	return pcieDir{k: k, div: div, iv: make([]pcieSpan, 0, 16)}
}

// dur returns the exact time of n bytes.
func (d *pcieDir) dur(n uint64) pcieTime {
	hi, lo := bits.Mul64(n, d.k)
	if hi >= d.div {
		panic("nic400g: PCIe transfer time overflows uint64 picoseconds")
	}
	q, r := bits.Div64(hi, lo, d.div)
	return pcieTime{rtlmodel.Time(q), r}
}

func (d *pcieDir) add(a, b pcieTime) pcieTime {
	s := pcieTime{a.ps + b.ps, a.frac + b.frac}
	if s.frac >= d.div {
		s.ps++
		s.frac -= d.div
	}
	return s
}

// prune drops the intervals that end at or before now.
func (d *pcieDir) prune(now rtlmodel.Time) {
	for d.head < len(d.iv) && !(pcieTime{now, 0}).less(d.iv[d.head].end) {
		d.head++
	}
	if d.head == len(d.iv) {
		d.iv, d.head = d.iv[:0], 0
	} else if d.head > 32 && d.head*2 > len(d.iv) {
		n := copy(d.iv, d.iv[d.head:])
		d.iv, d.head = d.iv[:n], 0
	}
}

// send reserves tlps TLPs of n wire bytes starting no earlier than start
// (which must not be before the pruning time) and the ordering floor, and
// returns the exact end. posted marks a posted write.
func (d *pcieDir) send(start pcieTime, tlps, n uint64, posted bool) pcieTime {
	l := d.dur(n)
	req := start
	if (posted || !req.less(d.postedReq)) && start.less(d.postedEnd) {
		start = d.postedEnd
	}
	t := start
	i := d.head
	if k := len(d.iv) - 1; k >= i && !start.less(d.iv[k].start) {
		// At or after the start of the last interval: the common case of
		// back-to-back transfers needs no search.
		i = k + 1
		if t.less(d.iv[k].end) {
			t = d.iv[k].end
		}
	}
	for ; i < len(d.iv); i++ {
		s := d.iv[i]
		if !t.less(s.end) {
			continue // interval wholly before t
		}
		if e := d.add(t, l); !s.start.less(e) {
			break // fits in the gap before s
		}
		t = s.end
	}
	end := d.add(t, l)
	d.tlps += tlps
	d.bytes += n
	if d.last.less(end) {
		d.last = end
	}
	if posted {
		d.postedEnd = end
		if d.postedReq.less(req) {
			d.postedReq = req
		}
	}
	// Insert [t, end) before index i, merging with touching neighbours.
	joinPrev := i > d.head && d.iv[i-1].end == t
	joinNext := i < len(d.iv) && d.iv[i].start == end
	switch {
	case joinPrev && joinNext:
		d.iv[i-1].end = d.iv[i].end
		d.iv = append(d.iv[:i], d.iv[i+1:]...)
	case joinPrev:
		d.iv[i-1].end = end
	case joinNext:
		d.iv[i].start = t
	default:
		d.iv = append(d.iv, pcieSpan{})
		copy(d.iv[i+1:], d.iv[i:])
		d.iv[i] = pcieSpan{t, end}
	}
	return end
}

// reset forgets every reservation and count.
func (d *pcieDir) reset() {
	d.iv, d.head, d.last, d.tlps, d.bytes = d.iv[:0], 0, pcieTime{}, 0, 0
	d.postedReq, d.postedEnd = pcieTime{}, pcieTime{}
}
