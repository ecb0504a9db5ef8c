package switchasic

import "fmt"

// DropReason says why a packet was dropped. The traffic manager gives the
// first three; the others are for the datapath's own drops, so every drop
// in the switch is counted under one type (issue: drops with reasons).
type DropReason uint8

const (
	// DropNone: not dropped.
	DropNone DropReason = iota
	// DropBufferFull: the shared pool had no room (FACTS 4 [R71]).
	DropBufferFull
	// DropQueueLimit: the egress queue was at its dynamic threshold.
	DropQueueLimit
	// DropHeadroomOverflow: a lossless (ingress port, class) used up its
	// PFC headroom (FACTS 2.7); a correctly sized configuration never does.
	DropHeadroomOverflow
	// DropNoRoute: no forwarding entry for the destination.
	DropNoRoute
	// DropMalformed: the parser rejected the packet.
	DropMalformed
	// DropTTL: the TTL or hop limit ran out.
	DropTTL
	// NumDropReasons is the number of reasons, for arrays indexed by them.
	NumDropReasons
)

var dropReasonNames = [NumDropReasons]string{
	"none", "buffer_full", "queue_limit", "headroom_overflow", "no_route", "malformed", "ttl",
}

// String returns the reason in snake case, as counters name it.
func (r DropReason) String() string {
	if r < NumDropReasons {
		return dropReasonNames[r]
	}
	return fmt.Sprintf("DropReason(%d)", uint8(r))
}

// Action is what the traffic manager does with an arriving packet.
type Action uint8

const (
	// Enqueue: the whole packet is queued in (egress, class).
	Enqueue Action = iota
	// Trim: the packet is cut to TrimConfig.TrimBytes and queued in
	// (egress, TrimConfig.TrimClass) (FACTS 2.5 [R19]).
	Trim
	// Drop: the packet is dropped for Verdict.Reason.
	Drop
)

// String names the action.
func (a Action) String() string {
	switch a {
	case Enqueue:
		return "enqueue"
	case Trim:
		return "trim"
	case Drop:
		return "drop"
	}
	return fmt.Sprintf("Action(%d)", uint8(a))
}

// Verdict is the traffic manager's decision on one packet. To release a
// queued packet, call Release with Class and Bytes from its verdict (they
// differ from the arrival's for a trimmed packet).
type Verdict struct {
	// Action says what happens to the packet.
	Action Action
	// Reason says why it was dropped (DropNone unless Action is Drop).
	Reason DropReason
	// MarkCE says to set ECN CE on the packet (WRED, FACTS 2.1 [R9]).
	MarkCE bool
	// Cells is the number of buffer cells the packet now holds (0 when
	// dropped); cells are FACTS 4 [R71] 254 B by default.
	Cells int
	// PFCXoff says this admission raised XOFF for (ingress port, class).
	PFCXoff bool
	// Class is the class whose queue the packet went to: the arrival's
	// class, or TrimConfig.TrimClass for a trimmed packet.
	Class int
	// Bytes is the size charged: the packet's bytes, or TrimBytes when
	// trimmed; 0 when dropped.
	Bytes int
}
