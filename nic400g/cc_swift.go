package nic400g

import (
	"math"
	"math/bits"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// Swift is the Swift sender of one QP (FACTS 2.4, as htsim models it, S
// [R19]): a delay-based congestion window with a target delay that grows
// with the hop count and shrinks as the window grows (flow scaling). On
// each ACK with an RTT sample, in htsim's order [R19]:
//
//   - canDecrease = now − lastDecrease ≥ srtt (srtt before this sample);
//     then srtt ← (7·srtt + rtt)/8 (the first sample sets it); the
//     retransmit counter resets.
//   - target = BaseTarget + hops·HopScale + fs, with
//     fs = clamp(α_fs/√(cwnd/MSS) + β_fs, 0, FSRange),
//     α_fs = FSRange/(1/√FSMinCwnd − 1/√FSMaxCwnd), β_fs = −α_fs/√FSMaxCwnd.
//   - rtt < target: cwnd += AI·MSS·acked/cwnd when cwnd ≥ MSS, else
//     cwnd += AI·acked (AI packets per RTT either way).
//   - otherwise, if canDecrease: cwnd ×= max(1 − β·(rtt − target)/rtt,
//     1 − MaxMDF).
//   - cwnd is clamped to [MinCwnd, MaxCwnd]; a smaller cwnd than before
//     the ACK sets lastDecrease = now.
//
// A retransmission timeout counts toward RetxResetThreshold, at which the
// window drops to MinCwnd; below it the window is cut by ×(1 − MaxMDF) if
// canDecrease. A NACK or a trimmed-packet NACK cuts by ×(1 − MaxMDF) if
// canDecrease, as htsim does at the end of fast recovery. With cwnd below
// one MSS Swift paces one packet every srtt·MSS/cwnd and is not window
// limited: Rate is then cwnd/srtt and Window 0; otherwise Window is cwnd
// and Rate 0.
//
// Fixed point (SwiftFracBits): cwnd in bytes with 16 fraction bits; β,
// MaxMDF Q0.16; AI Q16.16 packets; √(cwnd/MSS) from an integer square
// root in Q16.16; fs and the target in whole ps. α_fs and β_fs are
// configuration constants computed once from the parameters and rounded
// to the ps (FlowScaling gives them); the per-ACK path is integer. Every
// product is truncated. Swift has no timers here: the retransmission
// timer belongs to loss recovery, which reports timeouts through OnLoss.
// Nothing allocates after Init.
type Swift struct {
	p *SwiftParams

	fsAlpha uint64 // ps·√packet
	fsBeta  int64  // ps

	cwnd         uint64 // bytes, Q48.16
	srtt         rtlmodel.Time
	lastDecrease rtlmodel.Time
	decreased    bool // lastDecrease is valid
	retx         uint32
	hops         uint32

	increases, decreases, resets uint64
}

// NewSwift returns a Swift sender at InitialCwnd on a path of 0 hops, or
// the error of p.Validate. p must not change while the sender uses it (FACTS 2.4).
func NewSwift(p *SwiftParams) (*Swift, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	s := &Swift{}
	s.Init(p)
	return s, nil
}

// Init resets s with parameters p, which must be valid (FACTS 2.4).
func (s *Swift) Init(p *SwiftParams) {
	*s = Swift{p: p, cwnd: p.InitialCwnd << SwiftFracBits}
	lo := 1 / math.Sqrt(float64(p.FSMinCwnd)/SwiftOne)
	hi := 1 / math.Sqrt(float64(p.FSMaxCwnd)/SwiftOne)
	a := float64(p.FSRange) / (lo - hi)
	s.fsAlpha = uint64(math.Round(a))
	s.fsBeta = -int64(math.Round(a * hi))
}

// FlowScaling returns the configuration constants α_fs (ps·√packet) and
// β_fs (ps) derived from the parameters (FACTS 2.4).
func (s *Swift) FlowScaling() (alpha uint64, beta int64) { return s.fsAlpha, s.fsBeta }

// SetHops sets the number of hops of the path, which scales the target
// delay (FACTS 2.4).
func (s *Swift) SetHops(n uint32) { s.hops = n }

// Name returns "swift" (FACTS 2.4).
func (s *Swift) Name() string { return "swift" }

// OnSend does nothing: Swift's window counts acknowledged bytes (FACTS 2.4).
func (s *Swift) OnSend(rtlmodel.Time, uint32) {}

// OnCNP does nothing: Swift reacts to delay (FACTS 2.4).
func (s *Swift) OnCNP(rtlmodel.Time) {}

// Advance does nothing: Swift has no timers here (FACTS 2.4).
func (s *Swift) Advance(rtlmodel.Time) {}

// NextEvent returns rtlmodel.Forever (FACTS 2.4).
func (s *Swift) NextEvent() rtlmodel.Time { return rtlmodel.Forever }

// Cwnd returns the window in bytes with 16 fraction bits (FACTS 2.4).
func (s *Swift) Cwnd() uint64 { return s.cwnd }

// SRTT returns the smoothed RTT (0 before the first sample; FACTS 2.4).
func (s *Swift) SRTT() rtlmodel.Time { return s.srtt }

// Counts returns the increases, decreases (by delay or loss) and resets
// to MinCwnd made (FACTS 2.4).
func (s *Swift) Counts() (increases, decreases, resets uint64) {
	return s.increases, s.decreases, s.resets
}

// Window returns the window in bytes, or 0 while cwnd is below one MSS
// and the sender paces instead (FACTS 2.4).
func (s *Swift) Window() uint64 {
	w := s.cwnd >> SwiftFracBits
	if w < uint64(s.p.MSS) {
		return 0
	}
	return w
}

// pacingRTT is the RTT pacing divides by: srtt, or the base target before
// the first sample.
func (s *Swift) pacingRTT() rtlmodel.Time {
	if s.srtt == 0 {
		return s.p.BaseTarget
	}
	return s.srtt
}

// pacing reports whether cwnd is under one MSS, so that Swift paces
// (subPacketPacer).
func (s *Swift) pacing() bool { return s.cwnd>>SwiftFracBits < uint64(s.p.MSS) }

// PacingDelay returns the gap between paced packets, srtt·MSS/cwnd, or 0
// when cwnd is at least one MSS (FACTS 2.4).
func (s *Swift) PacingDelay() rtlmodel.Time {
	if s.cwnd>>SwiftFracBits >= uint64(s.p.MSS) {
		return 0
	}
	return rtlmodel.Time(ccMulDiv(uint64(s.pacingRTT()), uint64(s.p.MSS)<<SwiftFracBits, s.cwnd))
}

// Rate returns the pacing rate cwnd/srtt in kb/s while cwnd is below one
// MSS, else 0 (FACTS 2.4).
func (s *Swift) Rate() Kbps {
	if s.cwnd>>SwiftFracBits >= uint64(s.p.MSS) {
		return 0
	}
	return min(Kbps(ccMulDiv(s.cwnd, 8e9, uint64(s.pacingRTT())<<SwiftFracBits)), s.p.LineRate)
}

// ccISqrt is ⌊√x⌋ by the bit-by-bit method, one step per two bits of x.
func ccISqrt(x uint64) uint64 {
	if x == 0 {
		return 0
	}
	var r uint64
	for bit := uint64(1) << ((bits.Len64(x) - 1) &^ 1); bit != 0; bit >>= 2 {
		if x >= r+bit {
			x -= r + bit
			r = r>>1 + bit
		} else {
			r >>= 1
		}
	}
	return r
}

// Target returns the target delay for the current window and hop count (FACTS 2.4).
func (s *Swift) Target() rtlmodel.Time {
	p := s.p
	t := p.BaseTarget + rtlmodel.Time(s.hops)*p.HopScale
	if s.cwnd == 0 {
		return t
	}
	pk := s.cwnd / uint64(p.MSS)         // packets, Q.16
	root := ccISqrt(pk << SwiftFracBits) // √packets, Q.16
	fs := int64(ccMulDiv(s.fsAlpha, SwiftOne, max(root, 1))) + s.fsBeta
	fs = min(max(fs, 0), int64(p.FSRange))
	return t + rtlmodel.Time(fs)
}

func (s *Swift) canDecrease(now rtlmodel.Time) bool {
	return !s.decreased || now-s.lastDecrease >= s.srtt
}

// OnAck processes one acknowledgement (see the type comment; FACTS 2.4).
func (s *Swift) OnAck(now rtlmodel.Time, ev *AckEvent) {
	rtt := ev.RTT
	if rtt == 0 {
		return
	}
	p := s.p
	can := s.canDecrease(now)
	if s.srtt == 0 {
		s.srtt = rtt
	} else {
		s.srtt = (7*s.srtt + rtt) / 8
	}
	s.retx = 0
	prev := s.cwnd
	target := s.Target()
	switch {
	case rtt < target:
		if s.cwnd>>SwiftFracBits >= uint64(p.MSS) {
			s.cwnd += ccMulDiv(uint64(p.AI)*uint64(p.MSS), ev.AckedBytes<<SwiftFracBits, s.cwnd)
		} else {
			s.cwnd += uint64(p.AI) * ev.AckedBytes
		}
		s.increases++
	case can:
		cut := ccMulDiv(uint64(p.Beta), uint64(rtt-target), uint64(rtt))
		f := SwiftOne - min(cut, uint64(p.MaxMDF))
		s.cwnd = ccMulDiv(s.cwnd, f, SwiftOne)
		s.decreases++
	}
	s.clamp(now, prev)
}

// OnLoss processes a loss signal (see the type comment; FACTS 2.4).
func (s *Swift) OnLoss(now rtlmodel.Time, kind LossKind) {
	p := s.p
	prev := s.cwnd
	if kind == LossTimeout {
		s.retx++
		if s.retx >= p.RetxResetThreshold {
			s.cwnd = p.MinCwnd << SwiftFracBits
			s.resets++
			s.clamp(now, prev)
			return
		}
	}
	if s.canDecrease(now) {
		s.cwnd = ccMulDiv(s.cwnd, SwiftOne-uint64(p.MaxMDF), SwiftOne)
		s.decreases++
	}
	s.clamp(now, prev)
}

func (s *Swift) clamp(now rtlmodel.Time, prev uint64) {
	p := s.p
	s.cwnd = min(max(s.cwnd, p.MinCwnd<<SwiftFracBits), p.MaxCwnd<<SwiftFracBits)
	if s.cwnd < prev {
		s.lastDecrease, s.decreased = now, true
	}
}

var _ CongestionControl = (*Swift)(nil)
