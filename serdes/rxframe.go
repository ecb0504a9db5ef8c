package serdes

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// RxFrame is a frame as the receiving MAC sees it, with the times it
// crossed the wire.
type RxFrame[T any] struct {
	Frame  T
	Timing RxTiming
}

// String renders the frame and its times at the receiver (ps), for
// traces: "<frame> in=<first>..<last> decoded=<t>", and " bad_fcs" for a
// frame an uncorrectable codeword hit. The PHY's link to the receiver
// renders the transmitter's times too (PhyLink.Connect).
func (f RxFrame[T]) String() string {
	t := f.Timing
	s := fmt.Sprintf("%v in=%d..%d decoded=%d", f.Frame, uint64(t.FirstBitIn), uint64(t.LastBitIn()), uint64(t.Decoded()))
	if t.BadFCS() {
		s += " bad_fcs"
	}
	return s
}

// RxTiming is what a receiver learns of a frame's crossing: when its first
// bit came in, how long it took to come in, when it was decoded, and
// whether an uncorrectable codeword hit it. The arrival its link carries
// is FrameTiming.Ready, and the transmitter's times are these less the
// wire's propagation (Wire.Propagation). It is 16 bytes, so that a frame
// on its link, with its arrival and its pointer, takes half a cache line:
// the entry a sender writes and the receiver reads a window later, out
// of the caches both times. The durations it holds are below
// MaxRxDuration (PhyLink fails the run for a frame beyond it).
type RxTiming struct {
	FirstBitIn rtlmodel.Time // at the receiver's SerDes
	ser        uint32        // LastBitIn - FirstBitIn (ps); its top bit: BadFCS
	decode     uint32        // Decoded - FirstBitIn (ps)
}

// MaxRxDuration bounds what RxTiming holds: a frame's serialisation, and
// the time from its first bit in to its decode, are shorter (2.1 ms; a
// 4 KB frame takes 82 ns at 400 Gb/s and 33 us at 1 Gb/s).
const MaxRxDuration = rtlmodel.Time(1<<31 - 1)

const badFCSBit = 1 << 31

// LastBitIn returns when the frame's last bit came in.
func (t RxTiming) LastBitIn() rtlmodel.Time { return t.FirstBitIn + t.Serialisation() }

// Serialisation returns the time from the frame's first bit to its last,
// preamble included: the same at both ends of the wire.
func (t RxTiming) Serialisation() rtlmodel.Time { return rtlmodel.Time(t.ser &^ badFCSBit) }

// Decoded returns when the frame was decoded (FrameTiming.Decoded).
func (t RxTiming) Decoded() rtlmodel.Time { return t.FirstBitIn + rtlmodel.Time(t.decode) }

// BadFCS reports whether an uncorrectable codeword hit the frame.
func (t RxTiming) BadFCS() bool { return t.ser&badFCSBit != 0 }

// rx is what the receiver learns of t; false when a duration is beyond
// MaxRxDuration (and the timing is then cut to it).
func (t *FrameTiming) rx() (RxTiming, bool) {
	ser, decode := t.LastBitOut-t.FirstBitOut, t.Decoded-t.FirstBitIn
	ok := ser <= MaxRxDuration && decode <= MaxRxDuration
	r := RxTiming{FirstBitIn: t.FirstBitIn, ser: uint32(min(ser, MaxRxDuration)), decode: uint32(min(decode, MaxRxDuration))}
	if t.BadFCS {
		r.ser |= badFCSBit
	}
	return r, ok
}

// formatRx renders a frame the PHY delivers with its times at both ends
// (ps), for traces: "<frame> out=<first>..<last> in=<first>..<last>
// decoded=<t>", and " bad_fcs" for a frame an uncorrectable codeword hit.
func (p *PhyLink[T]) formatRx(f RxFrame[T]) string {
	t := f.Timing
	prop := p.wire.Propagation()
	s := fmt.Sprintf("%v out=%d..%d in=%d..%d decoded=%d", f.Frame, uint64(t.FirstBitIn-prop), uint64(t.LastBitIn()-prop),
		uint64(t.FirstBitIn), uint64(t.LastBitIn()), uint64(t.Decoded()))
	if t.BadFCS() {
		s += " bad_fcs"
	}
	return s
}
