package rtlmodel

// Interrupt ends the Run in progress (or, when none is, the next one)
// early, at the first clean point: the time the partitions have run to,
// the furthest of them, once the others have caught up with it, so that
// the run ends as a Run to that time would have, and Now says the time.
// It is safe to call from any goroutine, such as one that takes signals.
// The flag is read once per sweep of the partitions, never per edge: an
// engine of one partition (Options.OnePartition) runs on to until. An
// interrupt that comes after a Run's last sweep is left for the next Run,
// so that a loop of Runs cannot lose it; a caller whose whole run ends
// there withdraws it (WithdrawInterrupt), so that it ends no later one.
func (e *Engine) Interrupt() { e.interrupt.Store(true) }

// WithdrawInterrupt takes back an Interrupt no Run has taken, reporting
// whether there was one. A caller that interrupts the Runs of a larger
// run (fabric's Run.Complete, when its context ends) calls it as that run
// ends, so that an interrupt that came too late to end any of its Runs
// does not end a later one at once.
func (e *Engine) WithdrawInterrupt() bool { return e.interrupt.Swap(false) }

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
