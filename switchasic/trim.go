package switchasic

import "fmt"

// TrimConfig is packet trimming (FACTS 2.5, 7 [R19][R21]): a packet of a
// lossy class that the buffer or its queue limit would drop is cut to its
// first TrimBytes and queued in TrimClass of the same egress port, a
// high-priority class, so the receiver learns of the loss at once (the
// UET NACK code TRIMMED 0x01, FACTS 2.6 [R21]). The trimmed header is
// charged TrimBytes (in cells) and is not subject to the dynamic
// threshold; it is dropped only when the shared pool has no cell left.
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
}

// DefaultTrimConfig returns trimming off with TrimBytes 64 and TrimClass 7.
func DefaultTrimConfig() TrimConfig { return TrimConfig{TrimBytes: 64, TrimClass: 7} }

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
	return nil
}
