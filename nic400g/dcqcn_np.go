package nic400g

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// CNP spacing of the notification point per flow (FACTS 2.1, "NP CNP
// spacing").
const (
	// NPIntervalPaper is the paper's 50 µs per flow (S [R65][R66][R67]).
	NPIntervalPaper = 50 * rtlmodel.Microsecond
	// NPIntervalFirmware is the firmware's MIN_TIME_BETWEEN_CNPS = 2 (S
	// [R11], a value FACTS treats as U; the unit, µs, is E).
	NPIntervalFirmware = 2 * rtlmodel.Microsecond
	// NPIntervalLinux is the Linux debugfs np_min_time_between_cnps
	// default of 0 µs: a CNP for every CE-marked packet (S [R12]).
	NPIntervalLinux rtlmodel.Time = 0
)

// NotificationPoint is the DCQCN receiver side (FACTS 2.1, "NP"): it turns
// CE-marked arrivals into CNPs, at most one per flow per Interval, as
// htsim's sink does (S [R66]): a CE arrival sends a CNP when the flow has
// never sent one or its last CNP is at least Interval old.
//
// State exists only for flows that saw CE: an open-addressed table of
// (QP index, time of last CNP) for at most maxFlows flows. The table
// starts small and doubles, at most log2(maxFlows) times, as flows come
// (most notification points of a large fabric see a few flows, or none);
// a table that has grown to hold maxFlows never allocates again. When
// maxFlows flows have entries, those whose last CNP is at least Interval
// old are dropped (forgetting them changes no decision); if none can be
// dropped the new flow gets its CNP without an entry and Overflows counts
// it. A decision depends on which flows have entries and their times
// alone, never on the table's size or layout.
type NotificationPoint struct {
	interval rtlmodel.Time
	keys     []uint32 // QP index + 1; 0 is an empty slot
	last     []rtlmodel.Time
	mask     uint32
	n, limit int

	ce, sent, suppressed, overflows uint64
}

// NewNotificationPoint returns a notification point with the given CNP
// spacing that tracks at most maxFlows flows at once.
func NewNotificationPoint(interval rtlmodel.Time, maxFlows int) (*NotificationPoint, error) {
	if maxFlows <= 0 || maxFlows > 1<<24 {
		return nil, fmt.Errorf("dcqcn np: %d flows; use 1 to 2^24", maxFlows)
	}
	np := &NotificationPoint{interval: interval, limit: maxFlows}
	np.resize(min(npFirstSize, npTableSize(maxFlows)))
	return np, nil
}

// npFirstSize is the number of slots a table starts with.
const npFirstSize = 16

// npTableSize is the number of slots that hold flows entries at a load
// of at most one half: the power of two at or above 2 × flows.
func npTableSize(flows int) int {
	size := 1
	for size < 2*flows {
		size <<= 1
	}
	return size
}

// resize moves the entries into a table of size slots (a power of two).
func (np *NotificationPoint) resize(size int) {
	keys, last := np.keys, np.last
	np.keys, np.last = make([]uint32, size), make([]rtlmodel.Time, size)
	np.mask = uint32(size - 1)
	for i, k := range keys {
		if k != 0 {
			j := np.slot(k - 1)
			for np.keys[j] != 0 {
				j = (j + 1) & np.mask
			}
			np.keys[j], np.last[j] = k, last[i]
		}
	}
}

// Interval returns the minimum time between two CNPs of one flow.
func (np *NotificationPoint) Interval() rtlmodel.Time { return np.interval }

// Flows returns the number of flows with state.
func (np *NotificationPoint) Flows() int { return np.n }

// Counts returns the CE-marked arrivals seen, CNPs sent, CE arrivals that
// sent no CNP because of the spacing, and flows that got a CNP without an
// entry because the table was full.
func (np *NotificationPoint) Counts() (ce, sent, suppressed, overflows uint64) {
	return np.ce, np.sent, np.suppressed, np.overflows
}

func (np *NotificationPoint) slot(qp uint32) uint32 {
	h := (qp + 1) * 0x9e3779b1
	return (h ^ h>>15) & np.mask
}

// OnCE handles a CE-marked packet of flow qp arriving at now and reports
// whether a CNP is to be sent for it now.
func (np *NotificationPoint) OnCE(qp uint32, now rtlmodel.Time) bool {
	np.ce++
	key := qp + 1
	i := np.slot(qp)
	for np.keys[i] != 0 {
		if np.keys[i] == key {
			if now-np.last[i] >= np.interval {
				np.last[i] = now
				np.sent++
				return true
			}
			np.suppressed++
			return false
		}
		i = (i + 1) & np.mask
	}
	np.sent++
	if np.n >= np.limit {
		np.dropStale(now)
		if np.n >= np.limit {
			np.overflows++
			return true
		}
		// the sweep moved entries; find the free slot again
		i = np.slot(qp)
		for np.keys[i] != 0 {
			i = (i + 1) & np.mask
		}
	}
	if 2*(np.n+1) > len(np.keys) {
		// one more entry would fill the table past half: double it
		np.resize(2 * len(np.keys))
		i = np.slot(qp)
		for np.keys[i] != 0 {
			i = (i + 1) & np.mask
		}
	}
	np.keys[i], np.last[i] = key, now
	np.n++
	return true
}

// dropStale removes every entry whose last CNP is at least one interval
// before now.
func (np *NotificationPoint) dropStale(now rtlmodel.Time) {
	for i := 0; i < len(np.keys); {
		if np.keys[i] != 0 && now-np.last[i] >= np.interval {
			np.remove(uint32(i))
			continue // slot i now holds a shifted entry (or is empty)
		}
		i++
	}
}

// remove deletes slot i with backward-shift deletion, so probing needs no
// tombstones.
func (np *NotificationPoint) remove(i uint32) {
	np.n--
	for {
		np.keys[i] = 0
		j := i
		for {
			j = (j + 1) & np.mask
			if np.keys[j] == 0 {
				return
			}
			home := np.slot(np.keys[j] - 1)
			// move j back to i when i lies cyclically in [home, j)
			if (j > i && (home <= i || home > j)) || (j < i && home <= i && home > j) {
				np.keys[i], np.last[i] = np.keys[j], np.last[j]
				i = j
				break
			}
		}
	}
}
