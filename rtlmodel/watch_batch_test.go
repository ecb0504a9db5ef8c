package rtlmodel

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Events told in batches (a window's read-ahead) come out of a watch in
// the order they do when each is added in place, with events left from
// earlier batches, batches that wrap the ring and batches whose events
// need the base moved.
func TestWatchBatchHoldsTheEventsAddWould(t *testing.T) {
	r := NewRNG(5, "watch-batch")
	var batched, single Watch
	p := &part{}
	now := Time(0)
	take := func(round int) {
		for {
			i, ok := single.Next(now)
			j, okb := batched.Next(now)
			require.Equal(t, ok, okb, "round %d: an event due in one watch only", round)
			if !ok {
				return
			}
			require.Equal(t, i, j, "round %d", round)
		}
	}
	rebased := 0
	for round := 0; round < 20000; round++ {
		n := 1 + r.Intn(12)
		// now and then, events a span later than the last ones, once
		// those are taken (a watch holds events a span apart at most):
		// the base moves
		far := round%997 == 0
		if far {
			now += 100
			take(round)
			require.Zero(t, batched.Pending())
		}
		base := batched.base
		for i := 0; i < n; i++ {
			at := now + Time(1+r.Intn(50))
			if far {
				at += watchSpan - watchSlack
			}
			idx := r.Intn(64)
			batched.addAhead(p, at, idx)
			single.add(at, idx)
		}
		p.endBatches()
		require.False(t, batched.batching, "round %d: the batch did not end", round)
		require.Equal(t, single.Pending(), batched.Pending(), "round %d", round)
		if batched.base != base {
			rebased++
		}
		if far {
			now += watchSpan - watchSlack
		}
		now += Time(r.Intn(30))
		take(round)
	}
	require.Greater(t, rebased, 10, "batches that moved the base")
}

// An add after a batch begins ends it first: the events already told go
// in order before the new one is put in place.
func TestWatchAddEndsABatch(t *testing.T) {
	var w Watch
	p := &part{}
	w.addAhead(p, 300, 1)
	w.addAhead(p, 100, 2)
	w.add(200, 3)
	require.False(t, w.batching)
	var got []int
	for {
		i, ok := w.Next(1000)
		if !ok {
			break
		}
		got = append(got, i)
	}
	require.Equal(t, []int{2, 3, 1}, got)
	p.endBatches() // the watch listed still: ending it again changes nothing
	require.Zero(t, w.Pending())
}

// BenchmarkWatchBatched is BenchmarkWatchOutOfOrder with each window's
// events told as a partition's read-ahead tells them: appended, then put
// in order once.
func BenchmarkWatchBatched(b *testing.B) {
	p := &part{}
	benchWatchWindows(b, func(w *Watch, at Time, idx int) { w.addAhead(p, at, idx) }, p.endBatches)
}
