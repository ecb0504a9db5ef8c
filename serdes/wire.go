package serdes

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// Wire-level defaults, each with its source.
const (
	// PreambleSFDBytes and IPGBytes frame every Ethernet frame on the wire
	// (FACTS 1.1 [R51]: 8 bytes of preamble and SFD, 12 bytes of IPG).
	PreambleSFDBytes = 8
	IPGBytes         = 12
	// PropagationPSPerMetre is signal propagation in cable, 5 ns/m
	// (FACTS 6.1 [R51][R56]).
	PropagationPSPerMetre = 5000
)

// FrameTiming is when a frame crosses a wire, all in exact ps (rounded
// down from the exact rational at most once per frame, with the fraction
// carried to the next frame).
type FrameTiming struct {
	FirstBitOut, LastBitOut rtlmodel.Time // at the transmitter's SerDes
	FirstBitIn, LastBitIn   rtlmodel.Time // at the receiver's SerDes
	// Decoded is when the receiver's FEC has decoded the frame's last bit:
	// last bit in + the interleaved codeword fill + the RX pipeline.
	Decoded rtlmodel.Time
	// Ready is when the receiving MAC passes the frame on: Decoded, or for
	// a cut-through receiver (WireConfig.CutThroughBytes) the time its
	// first CutThroughBytes bytes are decoded.
	Ready rtlmodel.Time
	// BadFCS is set when an uncorrectable codeword hit the frame.
	BadFCS bool
	// Codewords is the number of RS(544,514) codewords the frame touched.
	Codewords uint64
}

// WireConfig describes one direction of a physical link.
type WireConfig struct {
	// Lanes is the lane group (4 lanes = 400G).
	Lanes LaneGroup
	// Interleave is the FEC codeword interleave (2 for 400GBASE-R, FACTS 3).
	Interleave Interleave
	// CableMillimetres is the cable length.
	CableMillimetres uint64
	// TxLatency is the transmit MAC/PCS/FEC-encode/SerDes pipeline, from a
	// frame handed to the PHY to its first bit on the wire.
	TxLatency rtlmodel.Time
	// RxPipeline is the receive FEC decode pipeline after codeword fill.
	RxPipeline rtlmodel.Time
	// PreFECBER drives the statistical FEC path: each codeword is lost with
	// the RS(544,514) failure probability at this BER (0: no errors).
	PreFECBER float64
	// Seed seeds the codeword-loss sampler.
	Seed uint64
	// NoEthernetFraming drops the preamble, SFD and IPG around each frame,
	// for lean native framing whose link framing FACTS 1.4 leaves out.
	NoEthernetFraming bool
	// CutThroughBytes, when > 0, makes the receiving MAC pass a frame on
	// once its first CutThroughBytes bytes are decoded (FrameTiming.Ready)
	// instead of after its FCS.
	CutThroughBytes int
}

// Wire computes exact frame timings on a serial link and decides, by the
// statistical FEC path, which frames an uncorrectable codeword hits. It
// knows nothing of clocks: the PhyLink component maps its times to edges.
type Wire struct {
	// What a frame reads comes first, in three cache lines (a PhyLink
	// holds the wire by value after one line of its own): the serializer
	// with the wire's free time and FEC bit count; the fixed times,
	// framing and the gap's split; the lane failures to come, the frame
	// count and the start of the FEC sampler, whose probability decide
	// reads.
	ser      Serializer    // by value
	free     rtlmodel.Time // when the wire can take the next frame's first bit
	msgBits  uint64        // FEC message bits so far (for codeword boundaries)
	fill     rtlmodel.Time // codeword fill at the line rate, rounded up
	head     rtlmodel.Time // preamble + cut-through bytes at the MAC rate, rounded up
	prop     rtlmodel.Time
	pre, ipg uint64 // link framing bytes before and after each frame
	// the gap's serialisation at the present rate (Serializer.Split)
	ipgPS, ipgRem uint64
	txLatency     rtlmodel.Time
	rxPipeline    rtlmodel.Time
	cutThrough    int // cfg.TxLatency, RxPipeline and CutThroughBytes, here with the rest
	started       bool
	lastHit       bool // whether the last decided codeword was lost
	degrades      []degrade
	// frames sent and frames an uncorrectable codeword hit; a PhyLink
	// registers them as its statistics
	frames  rtlmodel.Counter
	sampler FailureSampler

	cfg       WireConfig
	lanes     LaneGroup
	decidedCW uint64 // codewords decided so far
	bad       rtlmodel.Counter
}

type degrade struct {
	at     rtlmodel.Time
	failed int
}

// NewWire checks cfg and returns a wire.
func NewWire(cfg WireConfig) (*Wire, error) {
	if cfg.Lanes.Lanes() == 0 {
		return nil, fmt.Errorf("serdes: wire needs a lane group of 1, 2, 4 or 8 lanes")
	}
	if cfg.Interleave.Depth() == 0 {
		cfg.Interleave = 1
	}
	w := &Wire{cfg: cfg, prop: rtlmodel.Time(cfg.CableMillimetres * PropagationPSPerMetre / 1000),
		pre: PreambleSFDBytes, ipg: IPGBytes, txLatency: cfg.TxLatency, rxPipeline: cfg.RxPipeline,
		cutThrough: cfg.CutThroughBytes}
	if cfg.NoEthernetFraming {
		w.pre, w.ipg = 0, 0
	}
	s, err := NewFailureSamplerBER(cfg.Seed, cfg.PreFECBER)
	if err != nil {
		return nil, err
	}
	w.sampler = *s
	w.setLanes(cfg.Lanes)
	return w, nil
}

func (w *Wire) setLanes(g LaneGroup) {
	w.lanes = g
	w.ser = *NewSerializer(g.MACRate())
	w.ipgPS, w.ipgRem = w.ser.Split(w.ipg * 8)
	w.fill = ceilPS(w.cfg.Interleave.FillTime(g.LineRate()))
	w.head = ceilPS(g.MACRate().SerialTime((w.pre + uint64(w.cfg.CutThroughBytes)) * 8))
}

// SetCutThrough sets how many leading bytes the receiving MAC needs before
// it passes a frame on (0: the whole frame): the receiver's property,
// known once the link's far end is.
func (w *Wire) SetCutThrough(bytes int) {
	w.cfg.CutThroughBytes, w.cutThrough = bytes, bytes
	w.setLanes(w.lanes)
}

// Lanes returns the lane group in force.
func (w *Wire) Lanes() LaneGroup { return w.lanes }

// Propagation returns the cable delay.
func (w *Wire) Propagation() rtlmodel.Time { return w.prop }

// FECFill returns the codeword fill time at the current line rate.
func (w *Wire) FECFill() rtlmodel.Time { return w.fill }

// Free returns when the wire can take the next frame's first bit.
func (w *Wire) Free() rtlmodel.Time { return w.free }

// FramingBytes returns the link framing around each frame on the wire:
// preamble, SFD and IPG (FACTS 1.1), or none with NoEthernetFraming.
func (w *Wire) FramingBytes() uint64 { return w.pre + w.ipg }

// Frames returns the frames sent and those hit by an uncorrectable codeword.
func (w *Wire) Frames() (sent, badFCS uint64) { return w.frames.Value(), w.bad.Value() }

// Sampler returns the statistical FEC path's sampler.
func (w *Wire) Sampler() *FailureSampler { return &w.sampler }

// DegradeAt fails lanes of the group from time at on: frames whose first
// bit leaves at or after at run at the degraded rate (for example 400G to
// 200G when 2 of 4 lanes fail). Calls must come in time order.
func (w *Wire) DegradeAt(at rtlmodel.Time, failedLanes int) error {
	if n := len(w.degrades); n > 0 && w.degrades[n-1].at > at {
		return fmt.Errorf("serdes: lane failures must be scheduled in time order")
	}
	w.degrades = append(w.degrades, degrade{at: at, failed: failedLanes})
	return nil
}

// ceilPS rounds a rational number of picoseconds up.
func ceilPS(r Rat) rtlmodel.Time { return rtlmodel.Time((r.Num() + r.Den() - 1) / r.Den()) }

// Transmit sends a frame of frameBytes (destination address to FCS) handed
// to the PHY at time handed. It returns the frame's timing; the wire is then
// busy until the frame's IPG ends.
func (w *Wire) Transmit(handed rtlmodel.Time, frameBytes int) FrameTiming {
	return w.TransmitAfter(handed, frameBytes, 0, false)
}

// TransmitAfter is Transmit for a frame still arriving at a cut-through
// switch, whose tail is decoded at the ingress at time tail: the frame's
// last bit may not leave before tail, and with whole (an egress faster than
// the ingress) its first bit may not leave before tail either.
func (w *Wire) TransmitAfter(handed rtlmodel.Time, frameBytes int, tail rtlmodel.Time, whole bool) FrameTiming {
	// the frame's serialisation, divided once: its ceiling for the tail,
	// its whole picoseconds and fraction for the wire's clock
	frameBits := (w.pre + uint64(frameBytes)) * 8
	serPS, serRem := w.ser.Split(frameBits)
	start := handed + w.txLatency
	if tail > 0 {
		ser := rtlmodel.Time(serPS)
		if serRem > 0 {
			ser++ // Serializer.CeilTime
		}
		if whole {
			start = max(start, tail)
		} else if tail > ser {
			start = max(start, tail-ser)
		}
	}
	if !w.started || start > w.free {
		// the wire was idle: the new frame starts on a whole picosecond
		w.ser.rem = 0
	} else {
		start = w.free
	}
	w.started = true
	for len(w.degrades) > 0 && start >= w.degrades[0].at {
		if g, ok := w.lanes.Degraded(w.degrades[0].failed); ok {
			w.setLanes(g)
			serPS, serRem = w.ser.Split(frameBits) // at the degraded rate
		}
		w.degrades = w.degrades[1:]
	}
	var t FrameTiming
	t.FirstBitOut = start
	// The frame's last bit leaves after preamble and frame; its IPG follows.
	t.LastBitOut = start + rtlmodel.Time(w.ser.AdvanceSplit(frameBits, serPS, serRem))
	w.free = t.LastBitOut + rtlmodel.Time(w.ser.AdvanceSplit(w.ipg*8, w.ipgPS, w.ipgRem))
	t.FirstBitIn = t.FirstBitOut + w.prop
	t.LastBitIn = t.LastBitOut + w.prop
	t.Decoded = t.LastBitIn + w.fill + w.rxPipeline
	t.Ready = t.Decoded
	if w.cutThrough > 0 && w.cutThrough < frameBytes {
		t.Ready = t.FirstBitIn + w.head + w.fill + w.rxPipeline
	}
	t.BadFCS, t.Codewords = w.decide(frameBits + w.ipg*8)
	w.frames.Inc()
	if t.BadFCS {
		w.bad.Inc()
	}
	return t
}

// MinLatency returns the least time from a frame handed to the PHY to the
// receiver seeing it (TransmitAfter's Ready) at the wire's present lane
// count: transmit pipeline, propagation, codeword fill and receive
// pipeline, with no serialisation and no frame ahead. Failed lanes only
// lengthen it.
func (w *Wire) MinLatency() rtlmodel.Time {
	return w.cfg.TxLatency + w.prop + w.fill + w.cfg.RxPipeline
}

// decide draws the fate of the codewords a slot of slotBits MAC bits
// touches. 256b/257b transcoding turns 256 MAC bits into 257 FEC message
// bits (FACTS 3 rate chain); a codeword shared with the previous frame
// keeps the fate already drawn for it.
func (w *Wire) decide(slotBits uint64) (bad bool, n uint64) {
	start := w.msgBits
	w.msgBits += slotBits * 257 / 256
	if w.sampler.Prob() == 0 {
		return false, CodewordsSpanned(start, w.msgBits-start)
	}
	first := start / RS544MessageBits
	last := (w.msgBits - 1) / RS544MessageBits
	n = last - first + 1
	if first < w.decidedCW && w.lastHit {
		bad = true
	}
	if last >= w.decidedCW {
		if news := last - w.decidedCW; news > 0 && w.sampler.Failures(news) > 0 {
			bad = true
		}
		w.lastHit = w.sampler.Next()
		bad = bad || w.lastHit
		w.decidedCW = last + 1
	}
	return bad, n
}
