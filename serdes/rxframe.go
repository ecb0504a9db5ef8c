package serdes

import (
	"fmt"
	"math"

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
	s := fmt.Sprintf("%v in=%d..%d decoded=%d", f.Frame, uint64(t.FirstBitIn), uint64(t.LastBitIn()), uint64(t.Decoded))
	if t.BadFCS {
		s += " bad_fcs"
	}
	return s
}

// RxTiming is what a receiver learns of a frame's crossing: when its first
// bit came in, how long it took to come in, when it was decoded, and
// whether an uncorrectable codeword hit it. The arrival its link carries
// is FrameTiming.Ready, and the transmitter's times are these less the
// wire's propagation (Wire.Propagation). It is 24 bytes, so that a frame
// on its link, with its arrival and its pointer, takes 40 bytes: the
// entry a sender writes and the receiver reads a window later, out of
// the caches both times, so the fewer lines the fewer misses.
type RxTiming struct {
	FirstBitIn rtlmodel.Time // at the receiver's SerDes
	Decoded    rtlmodel.Time // FrameTiming.Decoded
	// Serialisation is the time from the frame's first bit to its last
	// (preamble included), the same at both ends, ps; it saturates at
	// 2^32-1 ps (4.29 ms, a 64 KB frame at 122 Mb/s), which only a trace
	// would show.
	Serialisation uint32
	BadFCS        bool // an uncorrectable codeword hit the frame
}

// LastBitIn returns when the frame's last bit came in.
func (t RxTiming) LastBitIn() rtlmodel.Time { return t.FirstBitIn + rtlmodel.Time(t.Serialisation) }

// rx is what the receiver learns of t.
func (t *FrameTiming) rx() RxTiming {
	ser := t.LastBitOut - t.FirstBitOut
	return RxTiming{FirstBitIn: t.FirstBitIn, Decoded: t.Decoded,
		Serialisation: uint32(min(ser, math.MaxUint32)), BadFCS: t.BadFCS}
}

// formatRx renders a frame the PHY delivers with its times at both ends
// (ps), for traces: "<frame> out=<first>..<last> in=<first>..<last>
// decoded=<t>", and " bad_fcs" for a frame an uncorrectable codeword hit.
func (p *PhyLink[T]) formatRx(f RxFrame[T]) string {
	t := f.Timing
	prop := p.wire.Propagation()
	s := fmt.Sprintf("%v out=%d..%d in=%d..%d decoded=%d", f.Frame, uint64(t.FirstBitIn-prop), uint64(t.LastBitIn()-prop),
		uint64(t.FirstBitIn), uint64(t.LastBitIn()), uint64(t.Decoded))
	if t.BadFCS {
		s += " bad_fcs"
	}
	return s
}
