package rtlmodel

import "math/bits"

// wakeWheel is the engine's queue of link and handle wakes: a timing wheel
// for the near future with a heap behind it for the rest. Every edge time
// is a multiple of the grain (the greatest common divisor of all clock
// periods and phases), so the wakes within wheelSlots grains of now fall in
// one slot per distinct time: a push appends to its slot, and the slot
// holding the earliest time becomes the head. Wakes further out, or all of
// them when the wheel is off (no grain), go to the heap. It pops in time
// order; the wakes of one time come in no particular order, since the
// engine takes all of them at once and orders the components itself.
type wakeWheel struct {
	grain Time // 0: the wheel is off and every wake goes to the heap
	now   *Time
	// ring holds the slots, made when the wheel is first turned on: the
	// partitions of a model of many devices keep their wheels off, and
	// slots inline would put a hundred kilobytes between each
	// partition's fields, every partition's on pages of its own
	ring  *wheelRing
	count int // wakes in the slots

	head   int  // slot being read, -1 when none
	headAt Time // its time
	rd     int  // next entry of the head slot

	far wakeHeap // wakes beyond the wheel's reach
}

// wheelRing is a wheel's slots and their occupancy bits.
type wheelRing struct {
	slots    [wheelSlots][]wakeEntry
	occupied [wheelSlots / 64]uint64
}

// wheelSlots is the wheel's size: 4096 grains (819 ns of 200 ps grains).
const wheelSlots = 4096

// slotCap is a slot's first capacity.
const slotCap = 64

// setGrain turns the wheel on with the given grain, or off for 0.
func (w *wakeWheel) setGrain(g Time) {
	if w.count > 0 {
		w.spill()
	}
	w.grain = g
	if g != 0 && w.ring == nil {
		w.ring = new(wheelRing)
	}
}

// spill moves every wake in the slots to the heap.
func (w *wakeWheel) spill() {
	if w.ring == nil {
		return
	}
	for i := range w.ring.slots {
		s := w.ring.slots[i]
		if i == w.head {
			s = s[w.rd:]
		}
		for _, e := range s {
			w.far.push(e)
		}
		w.ring.slots[i] = w.ring.slots[i][:0]
	}
	w.ring.occupied = [wheelSlots / 64]uint64{}
	w.count, w.head = 0, -1
}

func (w *wakeWheel) len() int { return w.count + w.far.len() }

func (w *wakeWheel) slot(t Time) int { return int(t/w.grain) & (wheelSlots - 1) }

func (w *wakeWheel) push(e wakeEntry) {
	now := *w.now
	if w.grain == 0 || e.t < now || e.t-now >= w.grain*wheelSlots {
		w.far.push(e)
		return
	}
	i := w.slot(e.t)
	if w.ring.slots[i] == nil {
		// a slot is made on first use with room for the wakes of a busy
		// edge, so the wheel stops allocating once it has turned once
		w.ring.slots[i] = make([]wakeEntry, 0, slotCap)
	}
	w.ring.slots[i] = append(w.ring.slots[i], e)
	w.ring.occupied[i>>6] |= 1 << uint(i&63)
	w.count++
	if w.head >= 0 && e.t < w.headAt {
		w.unload()
	}
}

// unload gives up the head slot (an earlier wake arrived), keeping its
// unread entries.
func (w *wakeWheel) unload() {
	s := w.ring.slots[w.head]
	w.ring.slots[w.head] = s[:copy(s, s[w.rd:])]
	w.head, w.rd = -1, 0
}

// load makes the slot of the earliest wake the head.
func (w *wakeWheel) load() bool {
	if w.head >= 0 && w.rd == len(w.ring.slots[w.head]) {
		w.ring.slots[w.head] = w.ring.slots[w.head][:0]
		w.ring.occupied[w.head>>6] &^= 1 << uint(w.head&63)
		w.head, w.rd = -1, 0
	}
	if w.head < 0 {
		if w.count == 0 {
			return false
		}
		w.head = w.firstOccupied(w.slot(*w.now))
		w.headAt, w.rd = w.ring.slots[w.head][0].t, 0
	}
	return true
}

// firstOccupied returns the first occupied slot at or after from, going
// round the wheel.
func (w *wakeWheel) firstOccupied(from int) int {
	n := len(w.ring.occupied)
	word := from >> 6
	bitsLeft := w.ring.occupied[word] &^ (1<<uint(from&63) - 1)
	for k := 0; k <= n; k++ {
		if bitsLeft != 0 {
			return word<<6 | bits.TrailingZeros64(bitsLeft)
		}
		word = (word + 1) % n
		bitsLeft = w.ring.occupied[word]
	}
	panic("rtlmodel: wake wheel count and occupancy disagree")
}

// fromWheel reports whether the earliest wake is in the wheel (after
// load) rather than in the heap.
func (w *wakeWheel) fromWheel() bool {
	if !w.load() {
		return false
	}
	return w.far.len() == 0 || w.headAt <= w.far.top().t
}

func (w *wakeWheel) top() *wakeEntry {
	if w.count == 0 {
		// nothing in the slots (always so with the wheel off, as in a
		// model of several partitions): the heap's, without looking at
		// the wheel, whose spent head slot load clears before its next use;
		// small enough to be inlined where the engine looks for due wakes
		return w.far.top()
	}
	return w.slotsTop()
}

// slotsTop is top when the slots hold wakes.
func (w *wakeWheel) slotsTop() *wakeEntry {
	if w.fromWheel() {
		return &w.ring.slots[w.head][w.rd]
	}
	return w.far.top()
}

func (w *wakeWheel) pop() wakeEntry {
	if w.count == 0 {
		return w.far.pop()
	}
	if w.fromWheel() {
		e := w.ring.slots[w.head][w.rd]
		w.rd++
		w.count--
		return e
	}
	return w.far.pop()
}
