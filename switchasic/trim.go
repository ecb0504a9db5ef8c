package switchasic

import "fmt"

// TrimConfig is packet trimming (FACTS 2.5, 7 [R19][R21]): a packet of a
// trim-eligible lossy class that the buffer or its queue limit would drop
// is cut to its first TrimBytes and queued in TrimClass of the same egress
// port, a high-priority class, so the receiver learns of the loss at once
// (the UET NACK code TRIMMED 0x01, FACTS 2.6 [R21]). The trimmed header is
// charged TrimBytes (in cells) and is not subject to the dynamic
// threshold; it is dropped only when the shared pool has no cell left.
//
// Only the classes in Trimmable are trimmed; a refused packet of any other
// class, a control frame among them, is dropped whole. A switch trims only
// what it knows to be trimmable:
//
//   - UET: "Switches that are configured to perform trimming will only
//     trim packets that they know to be trimmable, as indicated by
//     DSCP_TRIMMABLE"; control packets carry DSCP_CONTROL, which is not
//     trimmable (S, UEC Specification 1.0.3 §4.1 and §3.6.4.7, as quoted
//     in public simulator code and notes; the specification was not read
//     directly). 1.0.3 also reserves the NACK code TRIMMED_ACK 0x03 of
//     FACTS 2.6 [R21]: a trimmed ACK draws no NACK (same sources).
//   - htsim trims data packets only; its ACKs, NACKs and PULLs are headers
//     of 64 B, queued whole at high priority or dropped (S [R19]
//     sim/compositequeue.cpp, sim/eqdspacket.h).
//   - Spectrum-4 trims the egress traffic classes configured trim-eligible
//     (S, NVIDIA Cumulus Linux 5.14 "Packet Trimming", egress-eligibility
//     traffic-class); Arista trims the packets an ingress traffic policy
//     selects (S, Arista EOS TOI "packet trimming").
//
// Packets no longer than TrimBytes and lossless packets are never trimmed.
type TrimConfig struct {
	// Enabled turns trimming on. Default off.
	Enabled bool
	// TrimBytes is how many leading bytes a trimmed packet keeps. Default
	// 64, the header size of the htsim EQDS model (FACTS 2.5 [R19]).
	TrimBytes int
	// TrimClass is the class trimmed headers are queued in; it must not be
	// lossless. Default 7, the highest class (E).
	TrimClass int
	// Trimmable marks the trim-eligible classes, those of UET's
	// DSCP_TRIMMABLE code points (see above); with trimming on at least
	// one must be set. Default class 0 alone, the class of data: control
	// frames ride class 6 and are dropped whole, not trimmed.
	Trimmable [MaxClasses]bool
}

// DefaultTrimConfig returns trimming off with TrimBytes 64, TrimClass 7
// and class 0, data, the one trim-eligible class.
func DefaultTrimConfig() TrimConfig {
	return TrimConfig{TrimBytes: 64, TrimClass: 7, Trimmable: [MaxClasses]bool{0: true}}
}

// validate checks an enabled configuration against classes and the
// lossless set; the error names the field.
func (t TrimConfig) validate(classes int, lossless [8]bool) error {
	if !t.Enabled {
		return nil
	}
	switch {
	case t.TrimBytes <= 0:
		return fmt.Errorf("Trim.TrimBytes %d; it must be positive", t.TrimBytes)
	case t.TrimClass < 0 || t.TrimClass >= classes:
		return fmt.Errorf("Trim.TrimClass %d; it must be a class below Classes (%d)", t.TrimClass, classes)
	case lossless[t.TrimClass]:
		return fmt.Errorf("Trim.TrimClass %d is lossless (PFC.Enabled); trimmed headers need a lossy class", t.TrimClass)
	}
	eligible := false
	for c, on := range t.Trimmable {
		if on && c >= classes {
			return fmt.Errorf("Trim.Trimmable[%d]: class %d is beyond Classes (%d)", c, c, classes)
		}
		eligible = eligible || on
	}
	if !eligible {
		return fmt.Errorf("Trim.Trimmable names no class; trimming needs at least one trim-eligible class")
	}
	return nil
}
