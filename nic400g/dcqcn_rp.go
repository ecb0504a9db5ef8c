package nic400g

import "github.com/fabricmodel/fabricmodel/rtlmodel"

// ReactionPoint is the DCQCN rate controller of one sending QP (FACTS 2.1,
// "RP state machine", S [R14]; increase stages per DCQCNParams.Variant,
// [R14] or [R66]). It holds the current and target rates in kb/s, α in the
// fixed point of its parameters, the three timers as exact picosecond
// expiry times and the byte counter.
//
// Behaviour, in the order the artifact [R14] codes it:
//   - The first CNP (or the first after a release) sets α to InitialAlpha,
//     optionally sets the rate to RateOnFirstCNP, and starts the α timer
//     (first expiry one AlphaPeriod later) and the rate-decrease timer
//     (first check one DecreasePeriod later). The first CNP counts as a
//     CNP for the decrease check but not for the α update.
//   - Every α period: α ← (1−g)·α + g if a CNP arrived since the last
//     update, else α ← (1−g)·α.
//   - Every decrease period, if a CNP arrived since the last check: the
//     target takes the current rate (see ClampTargetRate), the rate is cut
//     to rate·(1 − α/2) bounded by MaxCutPct and MinRate, the stage
//     counters and byte counter reset and the increase timer restarts one
//     IncreasePeriod later.
//   - Each increase event (timer T, or B bytes sent in the two-counter
//     variant) runs fast recovery, additive or hyper increase: the target
//     grows by the stage's step, capped at line rate, and the rate moves
//     to ⌈(rate + target)/2⌉ (rounded up so that it reaches the target).
//
// Expiries that fall at the same picosecond are processed α first, then
// the decrease check, then the increase timer; every input method first
// processes the expiries up to and including its time. A ReactionPoint
// never allocates after Init; the zero value is not usable.
type ReactionPoint struct {
	p *DCQCNParams

	cur, tgt Kbps
	alpha    uint32
	tStage   uint32 // timer events since the last cut
	bcStage  uint32 // byte-counter events since the last cut
	bytes    uint64 // bytes toward the next byte-counter event

	active   bool
	alphaCNP bool // a CNP arrived since the last α update
	decCNP   bool // a CNP arrived since the last decrease check

	nextAlpha, nextDec, nextInc rtlmodel.Time

	cnps, cuts, increases uint64
}

// NewReactionPoint returns a reaction point at line rate, idle until its
// first CNP. p must be valid (DCQCNParams.Validate) and must not change
// while the reaction point uses it; many reaction points share one.
func NewReactionPoint(p *DCQCNParams) *ReactionPoint {
	r := &ReactionPoint{}
	r.Init(p)
	return r
}

// Init resets r to line rate, idle, with parameters p (for reaction points
// kept by value in a slab).
func (r *ReactionPoint) Init(p *DCQCNParams) {
	*r = ReactionPoint{p: p, cur: p.LineRate, tgt: p.LineRate, alpha: p.InitialAlpha}
	r.stopTimers()
}

func (r *ReactionPoint) stopTimers() {
	r.nextAlpha, r.nextDec, r.nextInc = rtlmodel.Forever, rtlmodel.Forever, rtlmodel.Forever
}

// Rate returns the current rate RC in kb/s.
func (r *ReactionPoint) Rate() Kbps { return r.cur }

// Target returns the target rate RT in kb/s.
func (r *ReactionPoint) Target() Kbps { return r.tgt }

// Alpha returns the α register (AlphaBits fraction bits).
func (r *ReactionPoint) Alpha() uint32 { return r.alpha }

// Stages returns the timer and byte-counter stage counters since the last
// cut (in the timer-only variant bc stays 0).
func (r *ReactionPoint) Stages() (t, bc uint32) { return r.tStage, r.bcStage }

// Active reports whether the reaction point has seen a CNP and not been
// released since.
func (r *ReactionPoint) Active() bool { return r.active }

// Counts returns the CNPs received, rate cuts made and increase events run.
func (r *ReactionPoint) Counts() (cnps, cuts, increases uint64) {
	return r.cnps, r.cuts, r.increases
}

// NextEvent returns the time of the earliest pending timer expiry, or
// rtlmodel.Forever when no timer runs. The owning component sleeps until
// then and calls Advance.
func (r *ReactionPoint) NextEvent() rtlmodel.Time {
	return min(r.nextAlpha, r.nextDec, r.nextInc)
}

// Advance processes every timer expiry at or before now, in time order.
func (r *ReactionPoint) Advance(now rtlmodel.Time) {
	for {
		t := r.NextEvent()
		if t > now || t == rtlmodel.Forever {
			return
		}
		switch t {
		case r.nextAlpha:
			r.nextAlpha = t + r.p.AlphaPeriod
			r.updateAlpha()
		case r.nextDec:
			r.nextDec = t + r.p.DecreasePeriod
			r.checkDecrease(t)
		default:
			r.nextInc = t + r.p.IncreasePeriod
			if r.p.Variant == TimerOnly {
				r.increase(r.tStage)
				r.tStage++
			} else {
				r.tStage++
				r.increase(0)
			}
		}
	}
}

// OnCNP records a CNP received at now, after processing the timer
// expiries up to now.
func (r *ReactionPoint) OnCNP(now rtlmodel.Time) {
	r.Advance(now)
	r.cnps++
	r.decCNP = true
	if r.active {
		r.alphaCNP = true
		return
	}
	r.active = true
	r.alpha = r.p.InitialAlpha
	r.alphaCNP = false
	if f := r.p.RateOnFirstCNP; f != 0 {
		r.cur = Kbps(uint64(r.cur) * uint64(f) >> 16)
		r.tgt = r.cur
	}
	r.tStage, r.bcStage, r.bytes = 0, 0, 0
	r.nextAlpha = now + r.p.AlphaPeriod
	r.nextDec = now + r.p.DecreasePeriod
	r.nextInc = rtlmodel.Forever
}

// OnBytesSent counts n bytes sent at now toward the byte counter B, after
// processing the timer expiries up to now. In the two-counter variant each
// full B is one byte-counter increase event at now; the counter runs only
// while the reaction point is active and after its first cut (as the
// increase timer does).
func (r *ReactionPoint) OnBytesSent(now rtlmodel.Time, n uint64) {
	r.Advance(now)
	b := r.p.ByteCounter
	if r.p.Variant != TwoCounter || b == 0 || !r.active || r.nextInc == rtlmodel.Forever {
		return
	}
	r.bytes += n
	for r.bytes >= b && r.active {
		r.bytes -= b
		r.bcStage++
		r.increase(0)
	}
}

func (r *ReactionPoint) updateAlpha() {
	p := r.p
	a := uint64(r.alpha) * (uint64(1)<<p.GShift - uint64(p.GNum))
	if p.AlphaRound {
		a += uint64(1) << (p.GShift - 1)
	}
	a >>= p.GShift
	if r.alphaCNP {
		a += uint64(p.GNum) << p.AlphaBits >> p.GShift
	}
	r.alpha = uint32(min(a, uint64(p.AlphaMax)))
	r.alphaCNP = false
}

func (r *ReactionPoint) checkDecrease(now rtlmodel.Time) {
	if !r.decCNP {
		return
	}
	p := r.p
	r.decCNP = false
	if p.ClampTargetRate || r.tStage != 0 || r.bcStage != 0 {
		r.tgt = r.cur
	}
	cut := uint64(r.cur) * uint64(r.alpha) >> p.GD
	cut = min(cut, uint64(r.cur)*uint64(p.MaxCutPct)/100)
	r.cur = max(p.MinRate, r.cur-Kbps(cut))
	r.cuts++
	r.tStage, r.bcStage, r.bytes = 0, 0, 0
	r.nextInc = now + p.IncreasePeriod
}

// increase runs one increase event. For TimerOnly, stage is the timer
// stage read before its increment; TwoCounter reads both counters.
func (r *ReactionPoint) increase(stage uint32) {
	p := r.p
	r.increases++
	var step Kbps
	if p.Variant == TimerOnly {
		switch {
		case stage < p.F:
		case stage == p.F:
			step = p.RAI
		default:
			step = p.RHAI
		}
	} else {
		lo, hi := min(r.tStage, r.bcStage), max(r.tStage, r.bcStage)
		switch {
		case hi <= p.F:
		case lo > p.F:
			step = Kbps(lo-p.F) * p.RHAI
		default:
			step = p.RAI
		}
	}
	r.tgt = min(r.tgt+step, p.LineRate)
	r.cur = min((r.cur+r.tgt+1)>>1, p.LineRate)
	if p.ReleaseAtLineRate && r.cur == p.LineRate {
		r.active, r.alphaCNP, r.decCNP = false, false, false
		r.tStage, r.bcStage, r.bytes = 0, 0, 0
		r.stopTimers()
	}
}
