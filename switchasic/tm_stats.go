package switchasic

import "github.com/fabricmodel/fabricmodel/rtlmodel"

// TMStats counts the traffic manager's decisions since it was made.
type TMStats struct {
	// Enqueued is packets queued whole.
	Enqueued uint64
	// Trimmed is packets trimmed to their header (FACTS 2.5).
	Trimmed uint64
	// Released is packets released (whole or trimmed).
	Released uint64
	// Marked is packets marked ECN CE (FACTS 2.1).
	Marked uint64
	// Drops counts drops by reason; only the TM reasons are used here.
	Drops [NumDropReasons]uint64
	// Xoff and Xon count PFC XOFF raised and XON due (FACTS 2.7).
	Xoff, Xon uint64
	// MaxUsedCells is the most buffer cells held at once (FACTS 4).
	MaxUsedCells uint64
}

// Dropped returns the total of all drops.
func (s TMStats) Dropped() uint64 {
	var n uint64
	for _, d := range s.Drops {
		n += d
	}
	return n
}

// tmMetrics are the registry metrics a TrafficManager updates once
// observed; nil until then, so the hot path pays one nil check.
type tmMetrics struct {
	drops              [NumDropReasons]*rtlmodel.Counter
	trimmed, xoff, xon *rtlmodel.Counter
	queues             []*rtlmodel.Gauge // egress*Classes + class; nil unless ObserveQueues
}
