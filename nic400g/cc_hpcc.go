package nic400g

import (
	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// HPCC is the HPCC sender of one QP (FACTS 2.2, S [R14][R16][R83]): a
// window in bytes driven by the INT records the receiver echoes, paced at
// W/T. It follows the IETF draft pseudocode that htsim reproduces [R83]
// (MeasureInflight, ComputeWind, NewAck) with the artifact's per-hop
// arithmetic [R14]:
//
//   - Every ACK with INT: each hop's u (HPCCHopU) against the hop's
//     previous record; the largest u and its τ feed the EWMA
//     U ← (U·(T−τ) + u·τ)/T with τ capped at T, rounded to nearest; the
//     stored records take the new ones.
//   - ComputeWind: if U ≥ η or incStage ≥ maxStage, W = ⌊W_c·η/U⌋ + W_AI
//     (the window scaled by η/U; U = 0 reads as one LSB), otherwise
//     W = W_c + W_AI; W is clamped to [MinWindow, MaxWindow].
//   - The reference window W_c and incStage (reset to 0 on a
//     multiplicative update, incremented on an additive one) change only
//     on the first ACK that acknowledges data beyond what had been sent
//     at the previous reference update, or whose RTT sample is of a packet
//     that left after it, i.e. once per RTT; every other ACK is a "fast
//     react" that sets W from W_c without moving W_c (S [R14][R16]).
//     Without losses the two are the same ACK; with packets lost the
//     bytes acknowledged stay behind what had been sent until every loss
//     is resent and acknowledged, and W_c would stay as it was for every
//     resend (as TIMELY's rate would, cc_timely.go).
//
// The first ACK with INT, and any ACK whose hop count differs from the
// stored records (a new path), only stores the records (S [R14][R83]).
// ACKs without INT count their bytes and change nothing else. HPCC has no
// timers; CNPs and losses leave the window alone (the artifact runs HPCC
// over a lossless fabric, S [R14]). Nothing allocates after Init.
type HPCC struct {
	p    *HPCCParams
	bdp  [8]uint64 // B·T in bytes per INT line-rate code
	tNs  uint64    // T in ns
	maxW uint64

	w, wc    uint64 // window in use, reference window W_c (bytes)
	u        uint32 // U, Q8.24
	incStage uint32
	rate     Kbps

	hops    [packet.INTMaxHops]packet.INTHop
	nhop    uint16
	started bool

	sent, acked, lastUpdate uint64 // payload sequence: sent, acknowledged, snd_nxt at the last reference update
	lastUpdateAt            rtlmodel.Time

	acks, updates, fastReacts uint64
}

// NewHPCC returns an HPCC sender at its largest window, or the error of
// p.Validate. p must not change while the sender uses it; many senders
// share one (FACTS 2.2).
func NewHPCC(p *HPCCParams) (*HPCC, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	h := &HPCC{}
	h.Init(p)
	return h, nil
}

// Init resets h with parameters p, which must be valid (for senders kept
// by value in a slab; FACTS 2.2).
func (h *HPCC) Init(p *HPCCParams) {
	*h = HPCC{p: p, tNs: uint64(p.BaseRTT / rtlmodel.Nanosecond), maxW: p.MaxWindow, u: p.Eta}
	if h.maxW == 0 {
		h.maxW = max(p.BDP(), p.MinWindow)
	}
	for code := range h.bdp {
		var hop packet.INTHop
		hop.LineRate = uint8(code)
		h.bdp[code] = ccMulDiv(hop.LineRateBps(), uint64(p.BaseRTT), 8e12)
	}
	h.w, h.wc = h.maxW, h.maxW
	h.rate = h.rateOf(h.w)
}

// Name returns "hpcc" (FACTS 2.2).
func (h *HPCC) Name() string { return "hpcc" }

// OnSend does nothing: HPCC numbers its send sequence in payload bytes,
// as ACKs number what they acknowledge, so the NIC advances it with each
// data packet's payload (onSendPayload) rather than its frame bytes
// (FACTS 2.2).
func (h *HPCC) OnSend(rtlmodel.Time, uint32) {}

// onSendPayload advances the send sequence by a data packet's payload
// (payloadSequencer): the reference sender's snd_nxt, which the ACK
// sequence is compared with (S [R14]; FACTS 2.2).
func (h *HPCC) onSendPayload(payload uint32) { h.sent += uint64(payload) }

// OnCNP does nothing: HPCC reacts to INT, not to CNPs (FACTS 2.2).
func (h *HPCC) OnCNP(rtlmodel.Time) {}

// readsINT declares that HPCC reads the in-band telemetry its ACKs echo
// (intReader): its data packets collect a hop record at each switch.
func (*HPCC) readsINT() {}

// OnLoss does nothing (see the type comment; FACTS 2.2).
func (h *HPCC) OnLoss(rtlmodel.Time, LossKind) {}

// Advance does nothing: HPCC has no timers (FACTS 2.2).
func (h *HPCC) Advance(rtlmodel.Time) {}

// NextEvent returns rtlmodel.Forever: HPCC has no timers (FACTS 2.2).
func (h *HPCC) NextEvent() rtlmodel.Time { return rtlmodel.Forever }

// Rate returns the pacing rate W/T in kb/s, rounded down and capped at
// the line rate (FACTS 2.2).
func (h *HPCC) Rate() Kbps { return h.rate }

// Window returns the window W in bytes (FACTS 2.2).
func (h *HPCC) Window() uint64 { return h.w }

// RefWindow returns the reference window W_c in bytes (FACTS 2.2).
func (h *HPCC) RefWindow() uint64 { return h.wc }

// U returns the smoothed utilisation in Q8.24 (FACTS 2.2).
func (h *HPCC) U() uint32 { return h.u }

// IncStage returns the number of additive reference updates since the
// last multiplicative one (FACTS 2.2).
func (h *HPCC) IncStage() uint32 { return h.incStage }

// Counts returns the ACKs with INT processed, reference updates and fast
// reacts (FACTS 2.2).
func (h *HPCC) Counts() (acks, updates, fastReacts uint64) {
	return h.acks, h.updates, h.fastReacts
}

func (h *HPCC) rateOf(w uint64) Kbps {
	return min(Kbps(ccMulDiv(w, 8e9, uint64(h.p.BaseRTT))), h.p.LineRate)
}

// OnAck processes one acknowledgement (see the type comment; FACTS 2.2).
func (h *HPCC) OnAck(now rtlmodel.Time, ev *AckEvent) {
	h.acked += ev.AckedBytes
	in := ev.INT
	if in == nil || in.NHop > packet.INTMaxHops {
		return
	}
	h.acks++
	if !h.started || in.NHop != h.nhop {
		h.hops, h.nhop = in.Hops, in.NHop
		if !h.started {
			h.started = true
			h.lastUpdate, h.lastUpdateAt = h.sent, now
		}
		return
	}
	full := h.acked > h.lastUpdate || (ev.RTT != 0 && ev.RTT <= now && now-ev.RTT > h.lastUpdateAt)
	var umax uint32
	var tau uint64
	got := false
	for i := range in.NHop {
		u, t, ok := HPCCHopU(&in.Hops[i], &h.hops[i], h.bdp[in.Hops[i].LineRate&7])
		h.hops[i] = in.Hops[i]
		if ok && (!got || u > umax) {
			umax, tau, got = u, t, true
		}
	}
	if got {
		tau = min(tau, h.tNs)
		h.u = hpccSat32((uint64(h.u)*(h.tNs-tau) + uint64(umax)*tau + h.tNs/2) / h.tNs)
		h.computeWind(full)
	}
	if full {
		h.lastUpdate, h.lastUpdateAt = max(h.lastUpdate, h.sent), now
	}
}

// computeWind is ComputeWind of [R83] with the clamp of [R14].
func (h *HPCC) computeWind(full bool) {
	p := h.p
	var w uint64
	mult := h.u >= p.Eta || h.incStage >= p.MaxStage
	if mult {
		w = ccMulDiv(h.wc, uint64(p.Eta), uint64(max(h.u, 1))) + p.WAI
	} else {
		w = h.wc + p.WAI
	}
	w = min(max(w, p.MinWindow), h.maxW)
	switch {
	case full:
		h.updates++
		h.wc = w
		if mult {
			h.incStage = 0
		} else {
			h.incStage++
		}
	case p.FastReact:
		h.fastReacts++
	default:
		return
	}
	h.w = w
	h.rate = h.rateOf(w)
}

var _ CongestionControl = (*HPCC)(nil)
