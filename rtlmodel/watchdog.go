package rtlmodel

import (
	"fmt"
	"strings"
)

// Blocked names one component that cannot move and what it waits on.
type Blocked struct {
	Path   string
	Reason string
}

// DeadlockError reports a run in which nothing moves while components still
// have work: every blocked component with what it waits on, and the links
// holding items nobody takes.
type DeadlockError struct {
	Time    Time
	Why     string
	Blocked []Blocked
	Links   []string
}

// Error lists the blocked components, one per line.
func (d *DeadlockError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "deadlock at %v: %s; %d blocked components", d.Time, d.Why, len(d.Blocked))
	for _, x := range d.Blocked {
		fmt.Fprintf(&b, "\n  %s: waits on %s", x.Path, x.Reason)
	}
	for _, l := range d.Links {
		fmt.Fprintf(&b, "\n  %s", l)
	}
	return b.String()
}

func (e *Engine) blocked() []Blocked {
	var out []Blocked
	for _, cs := range e.comps {
		if b, ok := cs.comp.(Blocker); ok {
			if r := b.BlockedOn(); r != "" {
				out = append(out, Blocked{Path: cs.path, Reason: r})
			}
		}
	}
	return out
}

func (e *Engine) blockedCount() int { return len(e.blocked()) }

func (e *Engine) deadlock(why string) error {
	d := &DeadlockError{Time: e.now, Why: why, Blocked: e.blocked()}
	for _, l := range e.links {
		if w := l.waitingOn(); w != "" {
			d.Links = append(d.Links, w)
		}
	}
	return d
}

// stalled reports whether the watchdog fires after the edges at t have
// run: more than its span has passed since anything last moved, and they
// moved nothing either. It is asked after the edges, not before: time
// the whole run sleeps through to a wake far ahead (a host waiting for
// its next flow's start) is no stall if that wake moves something, while
// components that keep running without moving anything are one.
func (e *Engine) stalled(t Time) bool {
	return e.watchdog > 0 && t > e.progressTime && t-e.progressTime > e.watchdog
}

// stall is the watchdog's deadlock report.
func (e *Engine) stall() error {
	return e.deadlock(fmt.Sprintf("no progress for %d cycles", e.opts.WatchdogCycles))
}
