package nic400g

import "github.com/fabricmodel/fabricmodel/rtlmodel"

// FixedPath is classic ECMP: one entropy value for the whole flow, so
// every packet hashes to the same path (FACTS 7, "Spraying entropy"). It
// ignores feedback.
type FixedPath struct {
	// Entropy is the value every packet carries.
	Entropy uint16
}

// NewRoCEv2FixedPath returns the fixed path Linux gives a RoCEv2 QP pair:
// UDP source port from the folded symmetric flow label of the two QPNs
// (FACTS 1.1, S [R7]).
func NewRoCEv2FixedPath(localQPN, remoteQPN uint32) *FixedPath {
	return &FixedPath{Entropy: RoCEv2SourcePort(RoCEv2FlowLabel(localQPN, remoteQPN))}
}

// Next returns the flow's entropy.
func (f *FixedPath) Next(rtlmodel.Time) uint16 { return f.Entropy }

// OnFeedback does nothing: ECMP does not react.
func (f *FixedPath) OnFeedback(rtlmodel.Time, uint16, PathEvent) {}
