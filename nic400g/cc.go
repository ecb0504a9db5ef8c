package nic400g

import (
	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// LossKind says how the sender learned that a packet was lost.
type LossKind uint8

const (
	// LossNACK is a NAK for a PSN sequence error (RoCE) or a UET NACK.
	LossNACK LossKind = iota + 1
	// LossTrimmed is a NACK for a packet a switch trimmed to its header.
	LossTrimmed
	// LossTimeout is a retransmission timeout.
	LossTimeout
)

// AckEvent is what the sender's congestion control learns from one
// acknowledgement.
type AckEvent struct {
	// AckedBytes is the payload newly acknowledged by this ACK.
	AckedBytes uint64
	// RTT is the round-trip sample the ACK gives (0: none).
	RTT rtlmodel.Time
	// ECE is set when the acknowledged data was CE-marked (ECN echo).
	ECE bool
	// INT carries the HPCC in-band telemetry echoed by the receiver (nil:
	// none).
	INT *packet.INT
	// Credit is receiver-granted credit in bytes (receiver-driven schemes).
	Credit uint64
	// Entropy is the path (entropy value) the acknowledged packet took.
	Entropy uint16
}

// CongestionControl is the sender-side congestion state of one QP (or
// flow) behind one interface, so the transmit scheduler treats every
// algorithm alike. Arithmetic inside is fixed point with documented widths
// (ARCHITECTURE "Fidelity"); time is exact picoseconds. Implementations
// keep state only for active QPs and allocate nothing per event.
type CongestionControl interface {
	// Name identifies the algorithm ("dcqcn", "hpcc", ...).
	Name() string
	// OnSend records bytes about to leave at now.
	OnSend(now rtlmodel.Time, bytes uint32)
	// OnAck processes an acknowledgement.
	OnAck(now rtlmodel.Time, ev *AckEvent)
	// OnCNP processes a congestion notification packet (DCQCN); others may
	// ignore it.
	OnCNP(now rtlmodel.Time)
	// OnLoss processes a loss signal.
	OnLoss(now rtlmodel.Time, kind LossKind)
	// Advance processes the algorithm's timers up to now.
	Advance(now rtlmodel.Time)
	// NextEvent is the time of the next timer, or rtlmodel.Forever.
	NextEvent() rtlmodel.Time
	// Rate is the allowed sending rate (0: not rate-limited).
	Rate() Kbps
	// Window is the allowed bytes in flight (0: not window-limited).
	Window() uint64
}
