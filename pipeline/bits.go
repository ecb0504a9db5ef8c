package pipeline

import (
	"math/bits"
	"unsafe"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// Bits is a request vector: bit i set means requester i asks for a grant.
// It holds 64 requesters per word; NewBits sizes it for n requesters.
// A Bits is reused from cycle to cycle (Reset, then Set), so building a
// request vector allocates nothing.
type Bits []uint64

// NewBits returns an empty vector for n requesters.
func NewBits(n int) Bits {
	if n < 0 {
		n = 0
	}
	return make(Bits, (n+63)/64)
}

// Set marks requester i.
func (b Bits) Set(i int) { b[i>>6] |= 1 << uint(i&63) }

// Clear unmarks requester i.
func (b Bits) Clear(i int) { b[i>>6] &^= 1 << uint(i&63) }

// Put sets or clears requester i.
func (b Bits) Put(i int, v bool) {
	if v {
		b.Set(i)
	} else {
		b.Clear(i)
	}
}

// Has reports whether requester i is marked.
func (b Bits) Has(i int) bool { return b[i>>6]&(1<<uint(i&63)) != 0 }

// Reset clears every requester.
func (b Bits) Reset() {
	for i := range b {
		b[i] = 0
	}
}

// Any reports whether some requester is marked.
func (b Bits) Any() bool {
	for _, w := range b {
		if w != 0 {
			return true
		}
	}
	return false
}

// Count returns the number of marked requesters.
func (b Bits) Count() int {
	n := 0
	for _, w := range b {
		n += bits.OnesCount64(w)
	}
	return n
}

// LoadMask sets the vector to the low 64 requesters of m (b must hold at
// least one word; further words are cleared).
func (b Bits) LoadMask(m uint64) {
	b.Reset()
	b[0] = m
}

// LoadBools sets the vector from a slice of flags, one per requester.
func (b Bits) LoadBools(req []bool) {
	b.Reset()
	for i, v := range req {
		if v {
			b.Set(i)
		}
	}
}

// First returns the lowest marked index in [lo, hi), or -1.
func (b Bits) First(lo, hi int) int { return b.first(lo, hi) }

// first is First, small enough to inline into callers of this package.
func (b Bits) first(lo, hi int) int {
	if lo >= hi {
		return -1
	}
	wi := lo >> 6
	w := b[wi] &^ (1<<uint(lo&63) - 1)
	for {
		if w != 0 {
			i := wi<<6 + bits.TrailingZeros64(w)
			if i >= hi {
				return -1
			}
			return i
		}
		wi++
		if wi<<6 >= hi {
			return -1
		}
		w = b[wi]
	}
}

// NextFrom returns the first marked index at or after from, wrapping
// around n requesters, or -1 when none is marked.
func (b Bits) NextFrom(from, n int) int {
	if i := b.first(from, n); i >= 0 {
		return i
	}
	return b.first(0, from)
}

func trailingZeros(w uint64) int { return bits.TrailingZeros64(w) }

// Prefetch prefetches the vector's words (rtlmodel.Prefetch), for a
// component's rtlmodel.Prefetcher.
func (b Bits) Prefetch() {
	if len(b) > 0 {
		rtlmodel.PrefetchLines(unsafe.Pointer(&b[0]), uintptr(len(b))*8)
	}
}
