package nic400g

import (
	"fmt"
	"math/bits"
)

// RecvResult classifies one arriving PSN.
type RecvResult uint8

const (
	// RecvInOrder: the PSN was the expected one; the expected PSN
	// advanced past it and past every held PSN that followed it.
	RecvInOrder RecvResult = iota
	// RecvOutOfOrder: ahead of the expected PSN inside the window, not
	// seen before; it is now held in the bitmap.
	RecvOutOfOrder
	// RecvDuplicate: before the expected PSN (in half-space order, S
	// [R82]) or already held.
	RecvDuplicate
	// RecvOutOfWindow: at least the window size ahead of the expected
	// PSN; not recorded (UET names this PSN_OOR_WINDOW, S [R21]).
	RecvOutOfWindow
)

// String names the result.
func (r RecvResult) String() string {
	switch r {
	case RecvInOrder:
		return "in-order"
	case RecvOutOfOrder:
		return "out-of-order"
	case RecvDuplicate:
		return "duplicate"
	case RecvOutOfWindow:
		return "out-of-window"
	}
	return fmt.Sprintf("RecvResult(%d)", uint8(r))
}

// RecvWindow is a receiver's PSN bitmap (FACTS 7, "Reorder and ACK
// state": at least 128–256 bits per active QP, E). It covers the Size
// PSNs from the expected PSN (the cumulative point: every PSN before it
// has arrived) as a ring of 64-bit words indexed by PSN modulo Size, so a
// PSN's bit never moves and advancing costs one word operation per 64
// PSNs. The bit of the expected PSN itself is always clear.
//
// Receive records an arrival without allocating; SACK returns a 64-bit
// selective-acknowledgement bitmap from any base PSN, the UET ACK_CC
// layout of sack_psn_offset plus a 64-bit bitmap (S [R21]).
type RecvWindow struct {
	words []uint64
	size  uint32 // PSNs covered, a power of two from 64 to 2^23
	epsn  PSN
	held  uint32 // PSNs held ahead of epsn

	inOrder, outOfOrder, dup, outOfWindow uint64
}

// NewRecvWindow returns a window of size PSNs (a power of two from 64 to
// 2^23) expecting start.
func NewRecvWindow(size int, start PSN) (*RecvWindow, error) {
	if size < 64 || size > PSNHalf || size&(size-1) != 0 {
		return nil, fmt.Errorf("psn window: size %d; use a power of two from 64 to 2^23", size)
	}
	return &RecvWindow{words: make([]uint64, size/64), size: uint32(size), epsn: start & PSNMask}, nil
}

// Reset empties the window and expects start.
func (w *RecvWindow) Reset(start PSN) {
	clear(w.words)
	w.epsn, w.held = start&PSNMask, 0
}

// Size returns the number of PSNs the window covers.
func (w *RecvWindow) Size() int { return int(w.size) }

// Expected returns the next in-order PSN (the cumulative ACK point).
func (w *RecvWindow) Expected() PSN { return w.epsn }

// Held returns the number of PSNs received ahead of the expected PSN.
func (w *RecvWindow) Held() int { return int(w.held) }

// FirstHeld returns the first PSN held ahead of the expected PSN, and
// false when none is.
func (w *RecvWindow) FirstHeld() (PSN, bool) {
	if w.held == 0 {
		return 0, false
	}
	for d := uint32(1); d < w.size; {
		psn := w.epsn.Add(d)
		i := uint32(psn) & (w.size - 1)
		off := i & 63
		if word := w.words[i>>6] >> off; word != 0 {
			return psn.Add(uint32(bits.TrailingZeros64(word))), true
		}
		d += 64 - off
	}
	return 0, false
}

// Counts returns how many arrivals were in order, out of order, duplicate
// and out of window.
func (w *RecvWindow) Counts() (inOrder, outOfOrder, dup, outOfWindow uint64) {
	return w.inOrder, w.outOfOrder, w.dup, w.outOfWindow
}

// Receive records the arrival of psn. It returns the classification and,
// for RecvInOrder, how many PSNs the expected PSN advanced (1 plus the
// held PSNs that followed it).
func (w *RecvWindow) Receive(psn PSN) (RecvResult, uint32) {
	psn &= PSNMask
	d := PSNDiff(psn, w.epsn)
	switch {
	case d < 0:
		w.dup++
		return RecvDuplicate, 0
	case uint32(d) >= w.size:
		w.outOfWindow++
		return RecvOutOfWindow, 0
	case d > 0:
		i := uint32(psn) & (w.size - 1)
		bit := uint64(1) << (i & 63)
		if w.words[i>>6]&bit != 0 {
			w.dup++
			return RecvDuplicate, 0
		}
		w.words[i>>6] |= bit
		w.held++
		w.outOfOrder++
		return RecvOutOfOrder, 0
	}
	w.inOrder++
	n := uint32(1)
	w.epsn = w.epsn.Next()
	for w.held > 0 {
		i := uint32(w.epsn) & (w.size - 1)
		off := i & 63
		word := w.words[i>>6] >> off
		ones := uint32(bits.TrailingZeros64(^word)) // ≤ 64 − off
		if ones == 0 {
			break
		}
		if ones == 64 {
			w.words[i>>6] = 0
		} else {
			w.words[i>>6] &^= (uint64(1)<<ones - 1) << off
		}
		n += ones
		w.held -= ones
		w.epsn = w.epsn.Add(ones)
		if off+ones < 64 {
			break
		}
	}
	return RecvInOrder, n
}

// Skip takes the n PSNs from the expected PSN as arrived: the PSNs an
// RDMA READ request reserves for its responses, which the responder
// sends rather than receives. PSNs held beyond them join the in-order
// run as in Receive.
func (w *RecvWindow) Skip(n uint32) {
	for n > 0 {
		if w.held == 0 {
			w.epsn = w.epsn.Add(n)
			return
		}
		_, k := w.Receive(w.epsn)
		n -= min(n, k)
	}
}

// Received reports whether psn has arrived: it is before the expected PSN
// or held in the window.
func (w *RecvWindow) Received(psn PSN) bool {
	d := PSNDiff(psn&PSNMask, w.epsn)
	if d < 0 {
		return true
	}
	if uint32(d) >= w.size {
		return false
	}
	i := uint32(psn) & (w.size - 1)
	return w.words[i>>6]>>(i&63)&1 != 0
}

// SACK returns the 64-bit bitmap whose bit k says whether base+k has
// arrived (bit 0 = base), for any base: PSNs before the expected PSN read
// 1, PSNs beyond the window read 0.
func (w *RecvWindow) SACK(base PSN) uint64 {
	base &= PSNMask
	d := PSNDiff(base, w.epsn)
	if d >= 0 && uint32(d) >= w.size {
		return 0
	}
	if d <= -64 {
		return ^uint64(0)
	}
	i := uint32(base) & (w.size - 1)
	off := i & 63
	out := w.words[i>>6] >> off
	if off != 0 {
		next := (i>>6 + 1) & (w.size/64 - 1)
		out |= w.words[next] << (64 - off)
	}
	if d < 0 {
		low := uint64(1)<<uint32(-d) - 1 // base..epsn−1 arrived
		// the ring bits of those positions belong to other PSNs
		out = out&^low | low
	}
	if lim := int64(w.size) - int64(d); lim < 64 {
		out &= uint64(1)<<uint64(lim) - 1 // base+lim is the first PSN beyond the window
	}
	return out
}
