package rtlmodel

import "fmt"

// CreditRoundTrip returns the credits a link needs to send Width items
// (or WidthBytes bytes, plus room for its largest item) every sender cycle
// without waiting (booksim's credit round trip).
func CreditRoundTrip(cfg LinkConfig, tx, rx *Domain) int {
	rtt := Time(cfg.Latency)*rx.period + Time(cfg.CreditLatency)*tx.period
	cycles := (rtt + tx.period - 1) / tx.period
	if cfg.WidthBytes > 0 {
		return cfg.WidthBytes*int(cycles) + cfg.MaxItemBytes
	}
	return cfg.Width * int(cycles)
}

// Credits returns the credits the sender holds now (or a large number for
// a link without flow control). While some are out, the next credit return
// wakes the sender: it may be waiting for any number of them (HasCredits
// says which).
func (l *Link[T]) Credits() int {
	if l.creditPool == 0 {
		return int(^uint(0) >> 1)
	}
	l.drainCredits()
	if l.avail < int(l.creditPool) {
		l.wantCredits()
	}
	return l.avail
}

// HasCredits reports whether the sender holds at least c credits now,
// whatever it sent at this edge (CanSendBytes also counts the link's
// width). When it does not, the next credit return wakes the sender.
func (l *Link[T]) HasCredits(c int) bool {
	if l.creditPool == 0 {
		return true
	}
	if l.avail < c {
		l.drainCredits()
		if l.avail < c {
			l.noteShort()
			l.wantCredits()
			return false
		}
	}
	return true
}

// noteShort records that the sender found credits left but fewer than
// its next item costs: on a byte-credited link they seldom run out to
// exactly 0 while a sender waits, so the cycles from this one to the next
// return are counted as starved too (drainCredits).
func (l *Link[T]) noteShort() {
	if l.avail == 0 || l.short {
		return // starved since the send that spent the last credit, or already short
	}
	if p := l.fromDom.period; l.e.now >= p {
		l.short, l.zeroSince = true, l.e.now-p
	}
}

// wantCredits asks for the sender to be woken by the next credit return
// (its credit watch told of it): the first one on its way back, or the
// next one made. A sender hears of returns only when it has found too few
// credits: one that holds enough, or has nothing to send, is not
// evaluated for every return (a NIC paced below line rate gets its
// credits back long before it may send again; a switch port that sent
// its last frame does not need the credits of it).
func (l *Link[T]) wantCredits() {
	if l.returns.n == 0 {
		l.creditWanted = true
		return
	}
	l.tellCredits(l.e, l.returns.Front().at)
}

// tellCredits wakes the sender (or tells its watch) for the return at at,
// unless it was told of that one already.
func (l *Link[T]) tellCredits(e *Engine, at Time) {
	if at == l.creditWake {
		return
	}
	l.creditWake = at
	if l.credits != nil {
		l.credits.add(at, int(l.credIdx)) // the watch wakes the sender
		return
	}
	e.wakeFor(l.fromCS, at)
}

// drainCredits takes in the credit returns that have arrived by now.
func (l *Link[T]) drainCredits() {
	for l.returns.n > 0 && l.returns.Front().at <= l.e.now {
		r := l.returns.Pop()
		// Cycles strictly between running out (or the cycle before the
		// sender found too few) and the return are starved.
		if p := l.fromDom.period; (l.avail == 0 || l.short) && r.at > l.zeroSince+p {
			l.starved.v += uint64((r.at-l.zeroSince)/p) - 1
		}
		l.short = false
		l.avail += r.n
	}
	if l.returns.n == 0 {
		// a link has a return or two in flight at a time: refilled from
		// its first slot, the ring stays in one line instead of sliding
		// through all of its lines
		l.returns.head = 0
	}
}

// CanSend reports whether the sender may send one more item this edge
// (on a byte-credited link: whether any credit is left; Fits says whether
// a given item fits).
func (l *Link[T]) CanSend() bool {
	if l.sentAt == l.e.now && l.sent >= int(l.width) {
		return false
	}
	if l.creditPool > 0 && l.avail == 0 {
		l.drainCredits()
		if l.avail == 0 {
			l.wantCredits()
			return false
		}
	}
	return true
}

// Fits reports whether v may be sent this edge: width and credits allow it.
func (l *Link[T]) Fits(v T) bool { return l.CanSendBytes(l.cost(v)) }

// CanSendBytes reports whether an item costing c credits (bytes on a
// byte-credited link, 1 otherwise) may be sent this edge.
func (l *Link[T]) CanSendBytes(c int) bool {
	if l.sentAt == l.e.now && l.sent >= int(l.width) {
		return false
	}
	if l.creditPool > 0 && l.avail < c {
		l.drainCredits()
		if l.avail < c {
			l.noteShort()
			l.wantCredits()
			return false
		}
	}
	return true
}

// returnCredits starts n credits back to the sender at the receiver edge
// taken (this edge, or a later one for a TakeOnSend receiver).
func (l *Link[T]) returnCredits(e *Engine, taken Time, n int) {
	at := taken + l.creditPs
	if !l.sameDomain {
		tx := l.fromDom
		at = tx.FirstEdgeAfter(taken) + l.creditPs
	}
	e.noteProgress(uint64(n))
	if l.across && at < e.now+e.window() {
		e.tooSoon(l.fromCS, at, "credits of link ", l.name, e.window())
	}
	if l.returns.n > 0 && l.returns.Back().at == at {
		l.returns.Back().n += n // another item taken at this edge: the same return
		return
	}
	l.returns.Push(creditReturn{at: at, n: n})
	if l.creditWanted {
		l.creditWanted = false
		l.tellCredits(e, at)
	}
}

// waitingOn says what the link's sender waits for, if anything.
func (l *Link[T]) waitingOn() string {
	if l.cfg.Credits > 0 && l.heldCredits() == 0 {
		return fmt.Sprintf("link %s has no credits (%d items at the receiver)", l.name, l.q.Len())
	}
	return ""
}

// heldCredits is Credits for reports: it asks for no wake.
func (l *Link[T]) heldCredits() int {
	l.drainCredits()
	return l.avail
}
