package nic400g

import (
	"fmt"
	"slices"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// CCNames lists the congestion-control algorithms Config.CC accepts.
var CCNames = []string{"none", "dcqcn", "dcqcn-fw", "hpcc", "timely", "swift", "nscc", "eqds"}

// noCC sends at line rate with no window: the baseline.
type noCC struct{}

func (noCC) Name() string                   { return "none" }
func (noCC) OnSend(rtlmodel.Time, uint32)   {}
func (noCC) OnAck(rtlmodel.Time, *AckEvent) {}
func (noCC) OnCNP(rtlmodel.Time)            {}
func (noCC) OnLoss(rtlmodel.Time, LossKind) {}
func (noCC) Advance(rtlmodel.Time)          {}
func (noCC) NextEvent() rtlmodel.Time       { return rtlmodel.Forever }
func (noCC) Rate() Kbps                     { return 0 }
func (noCC) Window() uint64                 { return 0 }

// dcqcnCC is a DCQCN reaction point behind the CongestionControl
// interface: CNPs cut the rate, the byte counter counts sent bytes.
type dcqcnCC struct{ rp *ReactionPoint }

// cnpReader is a congestion control that reacts to CNPs: receivers turn
// CE marks into CNPs only for senders that run one (NIC.notifyCE). The
// others ignore CNPs (OnCNP does nothing).
type cnpReader interface{ readsCNPs() }

func (dcqcnCC) readsCNPs() {}

// intReader is a congestion control that reads the in-band telemetry its
// ACKs echo: its data packets collect a hop record at every switch egress
// (NIC.collectINT). HPCC is one (cc_hpcc.go).
type intReader interface{ readsINT() }

// payloadSequencer is a congestion control that numbers what it sends in
// payload bytes, as AckEvent.AckedBytes numbers what is acknowledged: the
// NIC gives it each new data packet's payload (onSendPayload; a
// retransmission's payload is acknowledged once, so it is not counted
// again, as a sender's snd_nxt does not move back) besides the frame
// bytes of OnSend. HPCC and TIMELY are two: their once-per-RTT update
// waits for the ACK of the payload sent at the previous update
// (cc_hpcc.go, cc_timely.go), which a frame count, or a count of resends,
// would put later each packet.
type payloadSequencer interface{ onSendPayload(payload uint32) }

// subPacketPacer is a congestion control that paces only while its window
// is under one packet and is window-limited otherwise, never both (Swift,
// FACTS 2.4). Once an ACK opens its window to a packet, the gap set at its
// last paced send no longer holds: htsim's Swift cancels its pacer and
// sends in window mode at once (S [R19]). HPCC, which paces and limits
// its window together, is not one.
type subPacketPacer interface{ pacing() bool }

// setCC gives q its congestion control cc and caches what the NIC asks of
// cc's kind, so that no type assertion is made per packet.
func (q *qpState) setCC(cc CongestionControl) {
	q.cc = cc
	q.eq, _ = cc.(*EQDSSender)
	q.paySeq, _ = cc.(payloadSequencer)
	q.subPacket, _ = cc.(subPacketPacer)
}

func (d dcqcnCC) Name() string                           { return "dcqcn" }
func (d dcqcnCC) OnSend(now rtlmodel.Time, bytes uint32) { d.rp.OnBytesSent(now, uint64(bytes)) }
func (d dcqcnCC) OnAck(rtlmodel.Time, *AckEvent)         {}
func (d dcqcnCC) OnCNP(now rtlmodel.Time)                { d.rp.OnCNP(now) }
func (d dcqcnCC) OnLoss(rtlmodel.Time, LossKind)         {}
func (d dcqcnCC) Advance(now rtlmodel.Time)              { d.rp.Advance(now) }
func (d dcqcnCC) NextEvent() rtlmodel.Time               { return d.rp.NextEvent() }
func (d dcqcnCC) Window() uint64                         { return 0 }
func (d dcqcnCC) Rate() Kbps {
	if !d.rp.Active() {
		return 0
	}
	return d.rp.Rate()
}

// ccFactory builds one QP's congestion control; the parameters are the
// NIC's, shared by its QPs.
type ccFactory func() CongestionControl

// newCCFactory checks the configured algorithm and returns its factory.
func newCCFactory(cfg *Config) (ccFactory, error) {
	rate := cfg.Wire.Lanes.MACRate().BitsPerSecond()
	line := rate.Num() / rate.Den()
	switch cfg.CC {
	case "", "none":
		return func() CongestionControl { return noCC{} }, nil
	case "dcqcn", "dcqcn-fw":
		p := PaperParams(line)
		if cfg.CC == "dcqcn-fw" {
			p = FirmwareParams(line)
		}
		if err := p.Validate(); err != nil {
			return nil, err
		}
		return func() CongestionControl { return dcqcnCC{NewReactionPoint(&p)} }, nil
	case "hpcc":
		t := cfg.HPCCBaseRTT
		if t == 0 {
			t = DefaultHPCCBaseRTT
		}
		p := DefaultHPCCParams(line, t)
		if _, err := NewHPCC(&p); err != nil {
			return nil, err
		}
		return func() CongestionControl { c, _ := NewHPCC(&p); return c }, nil
	case "timely":
		p := DefaultTimelyParams(line)
		if _, err := NewTimely(&p); err != nil {
			return nil, err
		}
		return func() CongestionControl { c, _ := NewTimely(&p); return c }, nil
	case "swift":
		p := DefaultSwiftParams(line)
		if _, err := NewSwift(&p); err != nil {
			return nil, err
		}
		return func() CongestionControl { c, _ := NewSwift(&p); return c }, nil
	case "eqds":
		p, err := eqdsParams(cfg)
		if err != nil {
			return nil, err
		}
		return func() CongestionControl { return NewEQDSSender(&p) }, nil
	case "nscc":
		p := DefaultNSCCParams(line, 10*rtlmodel.Microsecond, false)
		return func() CongestionControl { return NewNSCC(&p) }, nil
	}
	return nil, fmt.Errorf("nic %d: unknown congestion control %q (one of %v)", cfg.ID, cfg.CC, CCNames)
}

// newCC builds a QP's congestion control.
func (n *NIC) newCC() CongestionControl { return n.ccf() }

// newPaths builds a QP's entropy selector.
func (n *NIC) newPaths(qp uint32) PathSelector {
	space := EntropyRoCEv2
	if n.cfg.Stack == UET {
		space = EntropyUET
	}
	switch n.cfg.Paths {
	case "spray":
		p := DefaultSprayParams(space)
		p.SetSize, p.Seed = uint32(n.cfg.PathSet), n.cfg.Seed
		s, err := NewObliviousSpray(p, fmt.Sprintf("nic%d/qp%d", n.cfg.ID, qp))
		if err == nil {
			return s
		}
	case "pathaware":
		p := DefaultPathAwareParams(space)
		p.SetSize, p.Seed = uint32(n.cfg.PathSet), n.cfg.Seed
		s, err := NewPathAwareSpray(p, fmt.Sprintf("nic%d/qp%d", n.cfg.ID, qp))
		if err == nil {
			return s
		}
	}
	return NewRoCEv2FixedPath(qp, n.qps[qp].peerQP)
}

// endPacingGap ends the gap before q's next packet when an acknowledgement
// (of data, or read feedback) has let a congestion control that paces
// only under one packet (subPacketPacer) leave pacing: its window lets a
// packet go now.
func (q *qpState) endPacingGap(now rtlmodel.Time) {
	if q.subPacket != nil && q.nextSend > now && !q.subPacket.pacing() {
		q.nextSend = now
	}
}

// lossBlindCC are the congestion controls whose OnLoss does nothing: they
// slow down for CNPs (DCQCN), hop telemetry (HPCC) or round-trip times
// (TIMELY) alone, and a NACK, trim or timeout leaves their rate and window
// as they were.
var lossBlindCC = []string{"none", "dcqcn", "dcqcn-fw", "hpcc", "timely"}

// cnpCC are the congestion controls that read CNPs (cnpReader): DCQCN,
// with the paper's or the firmware's parameters.
var cnpCC = []string{"dcqcn", "dcqcn-fw"}

// ReadsCNPs reports whether the congestion control named cc (one of
// CCNames) cuts its rate for CNPs, and so for ECN marks alone: a
// receiver sends a CNP only for a marked packet.
func ReadsCNPs(cc string) bool { return slices.Contains(cnpCC, cc) }

// IgnoresLoss reports whether the congestion control named cc (one of
// CCNames) leaves its rate and window as they were when a packet is
// NACKed, trimmed or timed out: its senders resend what was lost at the
// rate that lost it.
func IgnoresLoss(cc string) bool { return slices.Contains(lossBlindCC, cc) }
