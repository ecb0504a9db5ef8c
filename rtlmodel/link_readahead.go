package rtlmodel

// ReadAheadInWindows reads this link's items ahead when its receiver's
// partition begins a window, as a link from another partition is read:
// for a link within a partition whose items wait longer than the part of
// a window left after they are sent, so that they are often out of the
// caches when they arrive. Call it before the run.
func (l *Link[T]) ReadAheadInWindows() { l.ahead = l.toCS.part }

// ReadAheadWith sets what is read of an item ahead of use: when the
// receiver's partition begins a window, fn reads each item arriving in it
// (say, the fields of a descriptor it points to) and returns anything made
// of them. It changes nothing; it only brings lines into the caches. Call
// it before the run.
func (l *Link[T]) ReadAheadWith(fn func(T) uint64) { l.readItem = fn }

// readAhead reads the link, the items that arrive before end and what
// ReadAheadWith says of each, to bring them into the caches ahead of use,
// and, on a link between partitions, tells the receiver of their arrivals.
// It reports whether the link still holds items (one that holds none
// leaves its partition's list until its next delivery) and the arrival of
// the first it has not told of, at or after end (Forever: none).
func (l *Link[T]) readAhead(e *Engine, end Time) (uint64, bool, Time) {
	if l.q.n == 0 {
		l.listed = false
		return 0, false, Forever
	}
	var s uint64
	for i := 0; i < l.q.n; i++ {
		f := &l.q.buf[(l.q.head+i)&l.q.mask]
		if f.at >= end {
			if !l.pull {
				break
			}
			if f.at > l.told {
				return s, true, f.at
			}
			// told already (when it was sent, before the windows began):
			// an item behind it may not be
			continue
		}
		s += uint64(f.at)
		if l.pull {
			l.tellAhead(e, f.at)
		}
		if l.readItem != nil {
			s += l.readItem(f.item)
		}
	}
	return s, true, Forever
}

// untold reports whether the link holds an item whose arrival its
// receiver has not been told of (a link between partitions, before the
// window that holds the arrival).
func (l *Link[T]) untold() bool { return l.q.n > 0 && l.q.Back().at > l.told }

// tellAhead is tell for the read-ahead of the receiver's partition, the
// partition being run: a watch is told in a batch (Watch.addAhead).
func (l *Link[T]) tellAhead(e *Engine, at Time) {
	if l.arrivals == nil || at <= l.told {
		l.tell(e, at)
		return
	}
	l.told = at
	l.arrivals.addAhead(e.cur, at, int(l.arrIdx))
}
