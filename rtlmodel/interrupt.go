package rtlmodel

// Interrupt ends the Run in progress (or, when none is, the next one)
// early, at the first clean point: the time the partitions have run to,
// the furthest of them, once the others have caught up with it, so that
// the run ends as a Run to that time would have, and Now says the time.
// It is safe to call from any goroutine, such as one that takes signals.
// The flag is read once per sweep of the partitions, never per edge: an
// engine of one partition (Options.OnePartition) runs on to until.
func (e *Engine) Interrupt() { e.interrupt.Store(true) }

// takeInterrupt returns the time a Run of the partitions to until is to
// end at: until, or, once Interrupt has been called, the time the
// furthest partition has run to (doneUntil is the time after the last
// edge a partition ran). It clears the interrupt it takes.
func (e *Engine) takeInterrupt(until Time) Time {
	if !e.interrupt.Load() {
		return until
	}
	e.interrupt.Store(false)
	var reached Time
	for _, d := range e.doneUntil {
		reached = max(reached, d)
	}
	if reached == 0 {
		return 0
	}
	return min(until, reached-1)
}
