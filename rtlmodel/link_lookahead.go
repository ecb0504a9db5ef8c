package rtlmodel

import "fmt"

// SetLookahead declares that every item the link delivers arrives at
// least d after the edge that sends it, not counting its receive delay
// (DelayArrivals), which adds to d. It is for a link whose sender's items
// cross a pipeline before they are sent (a PHY taken on send, which puts
// each frame on the wire a transmit pipeline after the MAC's edge, and
// whose receiver takes it a receive pipeline later): between partitions,
// the receiver's may then run up to d plus the receive delay past the
// sender's, instead of the engine's lookahead (Engine.SetLookahead), so
// that each device runs longer windows. An item that arrives sooner stops
// the run with an error naming the link, as one that breaks the engine's
// lookahead does. Credit returns keep the engine's lookahead. Call it
// before the run; 0 gives the link the engine's lookahead again.
func (l *Link[T]) SetLookahead(d Time) error {
	if l.e.started {
		return fmt.Errorf("link %s: lookahead set after the run began", l.name)
	}
	l.lookahead = d
	return nil
}

// Lookahead returns the lookahead SetLookahead declared, with the receive
// delay added, or 0 where none was declared (the engine's applies).
func (l *Link[T]) Lookahead() Time {
	if l.lookahead == 0 {
		return 0
	}
	return l.lookahead + l.rxDelay
}

// MinLatency returns the least time from the edge that sends an item to
// the item becoming visible to the receiver: the link's fixed latency and
// its receive delay (DelayArrivals). An item sent for a later time
// (SendAt) comes later still.
func (l *Link[T]) MinLatency() Time { return l.latencyPs + l.rxDelay }

func (l *Link[T]) lookaheads(window Time) (items Time, credits bool) {
	items = window
	if l.lookahead > 0 {
		items = l.lookahead + l.rxDelay
	}
	l.minAcross = items
	return items, l.creditPool > 0
}
