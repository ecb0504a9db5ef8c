package nic400g

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// TestPCIeDirFirstFit checks the busy-interval table against a brute
// force over every reservation ever made: no two reservations overlap,
// each starts no earlier than asked, and none could have started earlier
// (at its requested start or at the end of an earlier reservation)
// without overlapping one made before it.
func TestPCIeDirFirstFit(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	d := newPCIeDir(8125, 509) // a byte time with a prime denominator
	var all []pcieSpan
	var now rtlmodel.Time
	overlaps := func(s pcieSpan, upto int) bool {
		for _, o := range all[:upto] {
			if s.start.less(o.end) && o.start.less(s.end) {
				return true
			}
		}
		return false
	}
	for i := 0; i < 1000; i++ {
		now += rtlmodel.Time(rng.IntN(300))
		d.prune(now)
		start := pcieTime{now + rtlmodel.Time(rng.IntN(4))*rtlmodel.Time(rng.IntN(2000)), 0}
		n := uint64(1 + rng.IntN(200))
		end := d.send(start, 1, n, false)
		l := d.dur(n)
		s := pcieSpan{pcieTime{}, end}
		// Recover the start from the end: end - l.
		s.start = pcieTime{end.ps - l.ps, 0}
		if end.frac >= l.frac {
			s.start.frac = end.frac - l.frac
		} else {
			s.start.ps--
			s.start.frac = end.frac + d.div - l.frac
		}
		require.False(t, s.start.less(start), "reservation %d starts before its request", i)
		require.False(t, overlaps(s, len(all)), "reservation %d overlaps", i)
		// Earliest candidates: the request time and every earlier end.
		for _, c := range append([]pcieTime{start}, spanEnds(all)...) {
			if c.less(start) || !c.less(s.start) {
				continue
			}
			cand := pcieSpan{c, d.add(c, l)}
			require.True(t, overlaps(cand, len(all)), "reservation %d could have started at %v", i, c)
		}
		all = append(all, s)
		// The table stays sorted and disjoint.
		for j := d.head + 1; j < len(d.iv); j++ {
			require.True(t, d.iv[j-1].end.less(d.iv[j].start), "table unsorted or touching at %d", j)
		}
	}
	assert.Less(t, len(d.iv), 64, "finished intervals are dropped")
}

func spanEnds(all []pcieSpan) []pcieTime {
	out := make([]pcieTime, len(all))
	for i, s := range all {
		out[i] = s.end
	}
	return out
}

// TestPCIeDirOrdering: with posted writes mixed in, reservations never
// overlap, posted writes end in the order they were reserved, and a
// transfer requested at or after the latest posted write's request
// starts after that write ends.
func TestPCIeDirOrdering(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	d := newPCIeDir(8125, 509)
	var all []pcieSpan
	var now rtlmodel.Time
	var postedReq, postedEnd pcieTime
	for i := 0; i < 1000; i++ {
		now += rtlmodel.Time(rng.IntN(300))
		d.prune(now)
		posted := rng.IntN(2) == 0
		start := pcieTime{now, 0}
		if !posted {
			start.ps += rtlmodel.Time(rng.IntN(3000))
		}
		n := uint64(1 + rng.IntN(200))
		end := d.send(start, 1, n, posted)
		l := d.dur(n)
		s := pcieSpan{pcieTime{end.ps - l.ps, 0}, end}
		if end.frac >= l.frac {
			s.start.frac = end.frac - l.frac
		} else {
			s.start.ps--
			s.start.frac = end.frac + d.div - l.frac
		}
		for _, o := range all {
			require.False(t, s.start.less(o.end) && o.start.less(s.end), "reservation %d overlaps", i)
		}
		if posted || !start.less(postedReq) {
			require.False(t, s.start.less(postedEnd), "reservation %d passes a posted write", i)
		}
		if posted {
			postedReq, postedEnd = start, end
		}
		all = append(all, s)
	}
}
