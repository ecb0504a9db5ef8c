package rtlmodel

// TimeMeter counts the picoseconds a condition holds whose end is known
// when it is set and may be moved by a later setting: a transmitter paused
// by a PFC frame for its quanta, paused for longer by the next one or
// released early by one with quanta 0. Its counter holds the time up to
// the last Set or Settle; Settle brings it up to a time without ending the
// condition, so a report of a run in progress counts the open part up to
// its end and no further. The zero value holds nothing open; register its
// counter with Registry.Own.
type TimeMeter struct {
	c            Counter
	open         bool
	since, until Time
}

// Counter returns the meter's counter, in picoseconds.
func (m *TimeMeter) Counter() *Counter { return &m.c }

// Set makes the condition hold from now until until; an until at or
// before now ends it at now. Times must not go back.
func (m *TimeMeter) Set(now, until Time) {
	m.Settle(now)
	if until <= now {
		m.open = false
		return
	}
	if !m.open {
		m.open, m.since = true, now
	}
	m.until = until
}

// Settle counts the time the condition held up to now: to its end when
// that has come, else to now, from where it goes on.
func (m *TimeMeter) Settle(now Time) {
	if !m.open {
		return
	}
	end := min(m.until, now)
	if end > m.since {
		m.c.v += uint64(end - m.since)
	}
	if m.until > now {
		m.since = now
		return
	}
	m.open = false
}
