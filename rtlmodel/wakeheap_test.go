package rtlmodel

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// The heap pops in (time, domain, order) order whatever the push order,
// with duplicates adjacent, interleaving pushes and pops as the engine does.
func TestWakeHeapPopsInKeyOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var h wakeHeap
	var want []wakeEntry
	var got []wakeEntry
	for round := 0; round < 200; round++ {
		for range r.IntN(40) {
			e := newWake(Time(r.IntN(50)), r.IntN(3), r.IntN(20), nil)
			h.push(e)
			want = append(want, e)
		}
		for range r.IntN(40) {
			if h.len() == 0 {
				break
			}
			got = append(got, h.pop())
		}
	}
	for h.len() > 0 {
		got = append(got, h.pop())
	}
	if len(got) != len(want) {
		t.Fatalf("popped %d of %d entries", len(got), len(want))
	}
	// Every entry's clock and order survive the packing.
	for _, e := range want {
		if e.clk() < 0 || e.clk() > 2 || e.ord() < 0 || e.ord() > 19 {
			t.Fatalf("key %x unpacks to clock %d order %d", e.key, e.clk(), e.ord())
		}
	}
	sortByKey := func(s []wakeEntry) {
		slices.SortFunc(s, func(a, b wakeEntry) int {
			switch {
			case a.before(&b):
				return -1
			case b.before(&a):
				return 1
			}
			return 0
		})
	}
	sortByKey(want)
	sorted := slices.Clone(got)
	sortByKey(sorted)
	if !slices.Equal(sorted, want) {
		t.Fatal("the heap lost or invented entries")
	}
	// Pushed in random order and drained, the entries come out sorted.
	shuffled := slices.Clone(want)
	r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	for _, e := range shuffled {
		h.push(e)
	}
	for i := range want {
		if e := h.pop(); e != want[i] {
			t.Fatalf("pop %d: got %+v, want %+v", i, e, want[i])
		}
	}
}

// The timer heap keeps one plan per component: setting a plan replaces the
// earlier one, removing drops it, and pops come in (time, domain, order)
// order, checked against a plain map of plans under random operations.
func TestTimerHeapKeepsOnePlanPerComponent(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	comps := make([]*compState, 40)
	for i := range comps {
		comps[i] = &compState{order: i, timer: -1}
	}
	var h timerHeap
	plans := map[*compState]wakeEntry{}
	for step := 0; step < 20000; step++ {
		cs := comps[r.IntN(len(comps))]
		switch r.IntN(4) {
		case 0, 1:
			w := newWake(Time(r.IntN(100)), r.IntN(3), cs.order, cs)
			h.set(w)
			plans[cs] = w
		case 2:
			h.remove(cs)
			delete(plans, cs)
		case 3:
			if h.len() == 0 {
				continue
			}
			got := h.pop()
			for _, w := range plans {
				if w.before(&got) {
					t.Fatalf("step %d: popped %v while %v is earlier", step, got, w)
				}
			}
			if plans[got.cs] != got {
				t.Fatalf("step %d: popped %v, the component's plan is %v", step, got, plans[got.cs])
			}
			delete(plans, got.cs)
		}
		if h.len() != len(plans) {
			t.Fatalf("step %d: %d entries for %d plans", step, h.len(), len(plans))
		}
		for i, w := range h.s {
			if int(w.cs.timer) != i {
				t.Fatalf("step %d: entry %d records index %d", step, i, w.cs.timer)
			}
		}
	}
}

// The wake wheel pops in time order, the wakes of each time being those a
// heap pops for it, under the engine's pattern of use: pushes later than
// now (some beyond the wheel's reach), now advancing to each popped time,
// pushes earlier than the slot being read.
func TestWakeWheelPopsLikeAHeap(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var now Time
	w := wakeWheel{now: &now, head: -1}
	w.setGrain(200)
	var ref wakeHeap
	push := func(at Time) {
		e := newWake(at, r.IntN(4), r.IntN(30), nil)
		w.push(e)
		ref.push(e)
	}
	byKey := func(a, b wakeEntry) int { return cmp.Compare(a.key, b.key) }
	for step := 0; step < 200000; step++ {
		switch r.IntN(5) {
		case 0, 1:
			push(now + 200*Time(1+r.IntN(20)))
		case 2:
			push(now + 200*Time(1+r.IntN(10000))) // often beyond the wheel
		default:
			if ref.len() == 0 {
				continue
			}
			at := ref.top().t
			if w.top().t != at {
				t.Fatalf("step %d: top at %v, want %v", step, w.top().t, at)
			}
			var got, want []wakeEntry
			for ref.len() > 0 && ref.top().t == at {
				want = append(want, ref.pop())
			}
			for w.len() > 0 && w.top().t == at {
				got = append(got, w.pop())
			}
			slices.SortFunc(got, byKey)
			slices.SortFunc(want, byKey)
			if !slices.Equal(got, want) {
				t.Fatalf("step %d: popped %v at %v, want %v", step, got, at, want)
			}
			now = at
		}
		if w.len() != ref.len() {
			t.Fatalf("step %d: %d wakes, want %d", step, w.len(), ref.len())
		}
	}
}
