package switchasic

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// The time each egress (port, class) spends paused by the PFC frames the
// port receives (FACTS 2.7): a frame pauses the class for its quanta, the
// next one refreshes or lifts the pause. A class's meter and its counter
// <switch>/port<i>/pfc_paused/c<c> (ps) come with its first pause, so a
// fabric without pauses registers none.

// notePause meters a PFC frame's setting for class c of port: paused from
// now until until (until at now lifts the pause).
func (m *mmu) notePause(port, c int, now, until rtlmodel.Time) {
	if m.paused == nil {
		m.paused = make([][8]*rtlmodel.TimeMeter, len(m.q))
	}
	t := m.paused[port][c]
	if t == nil {
		if until <= now {
			return // lifting what never paused
		}
		t = &rtlmodel.TimeMeter{}
		m.sw.e.Stats().Own(t.Counter(), fmt.Sprintf("%s/port%d/pfc_paused/c%d", m.sw.path, port, c), "ps",
			"time the port's egress class was paused by the PFC frames it received (FACTS 2.7), counted up to the last PFC frame or settle")
		m.paused[port][c] = t
	}
	t.Set(now, until)
}

// SettleCounters brings the counters that count time (the PFC pause
// times) up to now, the time the model has run to: call it between runs,
// before reading them. Nothing the switch does depends on it.
func (sw *Switch) SettleCounters(now rtlmodel.Time) {
	for _, classes := range sw.mmu.paused {
		for _, t := range classes {
			if t != nil {
				t.Settle(now)
			}
		}
	}
}

// PausedTime returns the time, to the last settle, that the switch's
// egress classes were paused by PFC: summed over (port, class), and the
// longest of one (port, class).
func (sw *Switch) PausedTime() (total, longest rtlmodel.Time) {
	for _, classes := range sw.mmu.paused {
		for _, t := range classes {
			if t != nil {
				v := rtlmodel.Time(t.Counter().Value())
				total += v
				longest = max(longest, v)
			}
		}
	}
	return total, longest
}
