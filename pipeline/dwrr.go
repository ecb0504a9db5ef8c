package pipeline

import "fmt"

// DWRR is deficit weighted round robin (Shreedhar and Varghese, "Efficient
// fair queuing using deficit round robin", SIGCOMM 1995). Eligible queues
// form a round; when a queue comes to the front of the round its deficit
// grows by its quantum, and it sends head packets while the head fits in
// the deficit, each packet taking its size off the deficit; then it goes to
// the back of the round. A queue that empties (or is paused) leaves the
// round and its deficit returns to zero, so an idle queue banks no credit.
// Over a long busy period each queue's share of the bytes is its quantum
// over the sum of the quanta, whatever the packet sizes.
//
// Each decision is O(1) when every quantum is at least the largest packet
// (the condition of the paper); with smaller quanta a decision may walk the
// round up to ceil(largest packet / smallest quantum) times. A queue alone
// in the round gets the quanta it needs in one step.
type DWRR struct {
	n       int
	quantum []uint32
	deficit []uint64
	head    []uint32
	paused  Bits
	fresh   Bits // the front queue has had its quantum for this visit
	inRound Bits
	next    []int32
	prev    []int32
	front   int32
	back    int32
	count   int
}

// NewDWRR returns a DWRR scheduler with one quantum in bytes per queue.
// Every quantum must be at least 1.
func NewDWRR(quanta []uint32) (*DWRR, error) {
	if len(quanta) == 0 {
		return nil, fmt.Errorf("DWRR: no queues")
	}
	for i, q := range quanta {
		if q == 0 {
			return nil, fmt.Errorf("DWRR: queue %d has a quantum of 0 bytes; quanta start at 1", i)
		}
	}
	n := len(quanta)
	if n <= smallDWRR {
		return newSmallDWRR(&smallDWRRStore{}, quanta), nil
	}
	d := &DWRR{n: n, quantum: append([]uint32(nil), quanta...), deficit: make([]uint64, n),
		head: make([]uint32, n), paused: NewBits(n), fresh: NewBits(n), inRound: NewBits(n),
		next: make([]int32, n), prev: make([]int32, n)}
	d.Reset()
	return d, nil
}

// smallDWRR is the most queues a DWRR keeps next to its own fields.
const smallDWRR = 8

// smallDWRRStore is a DWRR of up to smallDWRR queues (a switch port's
// classes) with its arrays beside it: one allocation and a few adjacent
// cache lines, where separate slices would cost a miss each.
type smallDWRRStore struct {
	d       DWRR
	quantum [smallDWRR]uint32
	head    [smallDWRR]uint32
	deficit [smallDWRR]uint64
	next    [smallDWRR]int32
	prev    [smallDWRR]int32
	bits    [3]uint64
}

// newSmallDWRR builds in st a DWRR over len(quanta) <= smallDWRR queues
// whose quanta are checked.
func newSmallDWRR(st *smallDWRRStore, quanta []uint32) *DWRR {
	n := len(quanta)
	copy(st.quantum[:], quanta)
	st.d = DWRR{n: n, quantum: st.quantum[:n], deficit: st.deficit[:n], head: st.head[:n],
		paused: st.bits[0:1], fresh: st.bits[1:2], inRound: st.bits[2:3], next: st.next[:n], prev: st.prev[:n]}
	st.d.Reset()
	return &st.d
}

// Size returns the number of queues.
func (d *DWRR) Size() int { return d.n }

// Quantum returns q's quantum in bytes.
func (d *DWRR) Quantum(q int) uint32 { return d.quantum[q] }

// Deficit returns q's deficit counter in bytes.
func (d *DWRR) Deficit(q int) uint64 { return d.deficit[q] }

// Active returns the number of queues in the round.
func (d *DWRR) Active() int { return d.count }

// SetHead declares q's head packet size (0: empty).
func (d *DWRR) SetHead(q int, bytes uint32) {
	d.head[q] = bytes
	d.update(q)
}

// SetPaused pauses or resumes q.
func (d *DWRR) SetPaused(q int, paused bool) {
	d.paused.Put(q, paused)
	d.update(q)
}

// update moves q in or out of the round after its state changed.
func (d *DWRR) update(q int) {
	elig := d.head[q] > 0 && !d.paused.Has(q)
	switch in := d.inRound.Has(q); {
	case elig && !in:
		d.pushBack(int32(q))
	case !elig && in:
		d.remove(int32(q))
		d.deficit[q] = 0
		d.fresh.Clear(q)
	}
}

// Pick returns the queue at the front of the round once its head fits in
// its deficit, or -1 when the round is empty.
func (d *DWRR) Pick() int {
	for d.count > 0 {
		q := int(d.front)
		if !d.fresh.Has(q) {
			add := uint64(d.quantum[q])
			if d.count == 1 && uint64(d.head[q]) > d.deficit[q]+add {
				// Alone in the round: the quanta of all the visits it
				// would make before its head fits, at once.
				need := uint64(d.head[q]) - d.deficit[q]
				add *= (need + add - 1) / add
			}
			d.deficit[q] += add
			d.fresh.Set(q)
		}
		if uint64(d.head[q]) <= d.deficit[q] {
			return q
		}
		d.fresh.Clear(q)
		if d.count > 1 {
			d.remove(int32(q))
			d.pushBack(int32(q))
		}
	}
	return -1
}

// Served takes bytes off q's deficit (never below zero: serving a queue
// the scheduler did not pick spends what it has) and records its new head.
func (d *DWRR) Served(q int, bytes, nextHead uint32) {
	d.deficit[q] -= min(d.deficit[q], uint64(bytes))
	d.head[q] = nextHead
	d.update(q)
}

// Reset empties every queue and clears all pauses, deficits and the round.
func (d *DWRR) Reset() {
	clear(d.deficit)
	clear(d.head)
	d.paused.Reset()
	d.fresh.Reset()
	d.inRound.Reset()
	d.front, d.back, d.count = -1, -1, 0
}

func (d *DWRR) pushBack(q int32) {
	d.next[q], d.prev[q] = -1, d.back
	if d.back >= 0 {
		d.next[d.back] = q
	} else {
		d.front = q
	}
	d.back = q
	d.count++
	d.inRound.Set(int(q))
}

func (d *DWRR) remove(q int32) {
	p, nx := d.prev[q], d.next[q]
	if p >= 0 {
		d.next[p] = nx
	} else {
		d.front = nx
	}
	if nx >= 0 {
		d.prev[nx] = p
	} else {
		d.back = p
	}
	d.count--
	d.inRound.Clear(int(q))
}
