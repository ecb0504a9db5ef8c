package verify

import (
	"fmt"
	"math/rand/v2"

	"github.com/fabricmodel/fabricmodel/nic400g"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// DCQCN input operations (field op of the dcqcn block).
const (
	// DCQCNAdvance processes the timer expiries up to the given time.
	DCQCNAdvance = 0
	// DCQCNCNP delivers a CNP at the given time.
	DCQCNCNP = 1
	// DCQCNBytes counts bytes sent at the given time.
	DCQCNBytes = 2
)

func init() {
	register(&Block{
		Name: "dcqcn",
		Summary: "DCQCN reaction-point rate update: nic400g.ReactionPoint (OnCNP, OnBytesSent, Advance) " +
			"with the firmware or paper parameter set; the state after each event",
		Params: []ParamSpec{
			{"line_gbps", 400, "line rate, Gb/s", 1, 100_000},
			{"paper", 0, "1: nic400g.PaperParams, 0: nic400g.FirmwareParams", 0, 1},
		},
		Input: PortSpec{Kind: Beat, Doc: "one event per valid cycle, at non-decreasing times", Fields: []FieldSpec{
			{"op", 2, "0 advance timers, 1 CNP, 2 bytes sent"},
			{"time_ns", 40, "event time, ns"},
			{"bytes", 32, "bytes sent (op 2)"},
		}},
		Output: PortSpec{Kind: Beat, Doc: "reaction-point state after the event", Fields: []FieldSpec{
			{"rate", 40, "current rate RC, kb/s"},
			{"target", 40, "target rate RT, kb/s"},
			{"alpha", 32, "alpha register (AlphaBits fraction bits)"},
		}},
		New: newDCQCNModel,
		Stimulus: func(r *rand.Rand, _ Params, n int) []Txn {
			out := make([]Txn, n)
			var t uint64
			for i := range out {
				t += uint64(r.IntN(20000))
				op := uint64(r.IntN(3))
				var b uint64
				if op == DCQCNBytes {
					b = uint64(r.IntN(1 << 20))
				}
				out[i] = beat(op, t, b)
			}
			return out
		},
	})
	register(&Block{
		Name:    "psn",
		Summary: "PSN reorder tracker: nic400g.RecvWindow.Receive; classification, advance and expected PSN per arrival",
		Params: []ParamSpec{
			{"window", 64, "PSNs the bitmap covers, a power of two", 64, nic400g.PSNHalf},
			{"start", 0, "first expected PSN after reset", 0, nic400g.PSNSpace - 1},
		},
		Check: func(p Params) error {
			if w := p["window"]; w&(w-1) != 0 {
				return fmt.Errorf("psn: window %d; use a power of two from 64 to %d", w, nic400g.PSNHalf)
			}
			return nil
		},
		Input: PortSpec{Kind: Beat, Doc: "one arriving PSN per valid cycle", Fields: []FieldSpec{{"psn", 24, "packet sequence number"}}},
		Output: PortSpec{Kind: Beat, Doc: "what the arrival did", Fields: []FieldSpec{
			{"result", 2, "0 in order, 1 out of order, 2 duplicate, 3 out of window (nic400g.RecvResult)"},
			{"advance", 24, "PSNs the expected PSN advanced (in order only)"},
			{"epsn", 24, "expected PSN after the arrival"},
		}},
		New:      newPSNModel,
		Stimulus: psnStimulus,
	})
}

type dcqcnModel struct {
	p    nic400g.DCQCNParams
	rp   nic400g.ReactionPoint
	last rtlmodel.Time
}

func newDCQCNModel(p Params) (Model, error) {
	bps := p["line_gbps"] * 1_000_000_000
	if p["line_gbps"] == 0 || p["line_gbps"] > 100_000 {
		return nil, fmt.Errorf("dcqcn: line_gbps %d; use 1 to 100000", p["line_gbps"])
	}
	m := &dcqcnModel{p: nic400g.FirmwareParams(bps)}
	if p["paper"] != 0 {
		m.p = nic400g.PaperParams(bps)
	}
	if err := m.p.Validate(); err != nil {
		return nil, err
	}
	m.Reset()
	return m, nil
}

// Reset implements Model: the state after reset.
func (m *dcqcnModel) Reset() { m.rp.Init(&m.p); m.last = 0 }

// Apply implements Model: one output, the reaction point's state after the event.
func (m *dcqcnModel) Apply(in *Txn, out []Txn) ([]Txn, error) {
	now := rtlmodel.Time(in.Fields[1]) * rtlmodel.Nanosecond
	if now < m.last {
		return out, fmt.Errorf("dcqcn: event at %d ns before the previous one at %d ns", in.Fields[1], m.last/rtlmodel.Nanosecond)
	}
	m.last = now
	switch in.Fields[0] {
	case DCQCNAdvance:
		m.rp.Advance(now)
	case DCQCNCNP:
		m.rp.OnCNP(now)
	case DCQCNBytes:
		m.rp.OnBytesSent(now, in.Fields[2])
	default:
		return out, fmt.Errorf("dcqcn: unknown op %d", in.Fields[0])
	}
	return append(out, beat(uint64(m.rp.Rate()), uint64(m.rp.Target()), uint64(m.rp.Alpha()))), nil
}

type psnModel struct {
	w     *nic400g.RecvWindow
	start nic400g.PSN
}

func newPSNModel(p Params) (Model, error) {
	if p["window"] > 1<<23 || p["start"] >= nic400g.PSNSpace {
		return nil, fmt.Errorf("psn: window %d or start %#x out of range", p["window"], p["start"])
	}
	start := nic400g.NewPSN(uint32(p["start"]))
	w, err := nic400g.NewRecvWindow(int(p["window"]), start)
	if err != nil {
		return nil, err
	}
	return &psnModel{w: w, start: start}, nil
}

// Reset implements Model: the state after reset.
func (m *psnModel) Reset() { m.w.Reset(m.start) }

// Apply implements Model: one output, the classification, advance and expected PSN.
func (m *psnModel) Apply(in *Txn, out []Txn) ([]Txn, error) {
	res, n := m.w.Receive(nic400g.NewPSN(uint32(in.Fields[0])))
	return append(out, beat(uint64(res), uint64(n), uint64(m.w.Expected()))), nil
}

// psnStimulus sends PSNs from start mostly in order, with local swaps,
// repeats of recent PSNs and rare jumps beyond the window.
func psnStimulus(r *rand.Rand, p Params, n int) []Txn {
	out := make([]Txn, 0, n)
	next := nic400g.NewPSN(uint32(p["start"]))
	for len(out) < n {
		switch k := r.IntN(10); {
		case k < 6:
			out = append(out, beat(uint64(next)))
			next = next.Next()
		case k < 8:
			out = append(out, beat(uint64(next.Next())), beat(uint64(next)))
			next = next.Add(2)
		case k < 9:
			out = append(out, beat(uint64(next.Sub(uint32(1+r.IntN(4))))))
		default:
			out = append(out, beat(uint64(next.Add(uint32(p["window"])+uint32(r.IntN(8))))))
		}
	}
	return out[:n]
}
