package verify

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/fabricmodel/fabricmodel/pipeline"
	"github.com/fabricmodel/fabricmodel/switchasic"
)

// DWRR input operations (field op of the dwrr block).
const (
	// DWRRSetHead declares the packet size of a queue (0: empty).
	DWRRSetHead = 0
	// DWRRDequeue asks the scheduler for one packet.
	DWRRDequeue = 1
)

// dwrrMaxQueues bounds the queues of the dwrr block.
const dwrrMaxQueues = 8

// dwrrMaxQuantum bounds a queue's quantum, in bytes.
const dwrrMaxQuantum = 1 << 31

// DWRRNone is the queue field of a dwrr output when no queue can send.
const DWRRNone = 0xf

func init() {
	params := []ParamSpec{{"queues", 4, "number of queues", 1, dwrrMaxQueues}}
	for q := range dwrrMaxQueues {
		params = append(params, ParamSpec{fmt.Sprintf("quantum%d", q), uint64(1500 * (q + 1)), fmt.Sprintf("quantum of queue %d, bytes", q), 1, dwrrMaxQuantum})
	}
	register(&Block{
		Name: "dwrr",
		Summary: "DWRR scheduler: pipeline.NewDWRR through the pipeline.Scheduler interface; each queue holds " +
			"packets of its declared size until declared otherwise",
		Params: params,
		Input: PortSpec{Kind: Beat, Doc: "one operation per valid cycle", Fields: []FieldSpec{
			{"op", 1, "0 set a queue's packet size, 1 dequeue one packet"},
			{"queue", 3, "queue of a set (op 0)"},
			{"bytes", 16, "packet size of a set, 0 for an empty queue"},
		}},
		Output: PortSpec{Kind: Beat, Doc: "one grant per dequeue", Fields: []FieldSpec{
			{"queue", 4, "queue served, 15 when none can send"},
			{"bytes", 16, "bytes it sent"},
		}},
		New: newDWRRModel,
		Stimulus: func(r *rand.Rand, p Params, n int) []Txn {
			out := make([]Txn, n)
			for i := range out {
				if r.IntN(4) == 0 {
					b := uint64(64 + r.IntN(9000))
					if r.IntN(5) == 0 {
						b = 0
					}
					out[i] = beat(DWRRSetHead, uint64(r.IntN(int(p["queues"]))), b)
				} else {
					out[i] = beat(DWRRDequeue, 0, 0)
				}
			}
			return out
		},
	})
	register(&Block{
		Name:    "wred",
		Summary: "WRED/ECN marker: switchasic.NewWREDCurve and Mark with a 16-bit draw from switchasic.NewLFSR32 per packet",
		Params: []ParamSpec{
			{"kmin", 1_600_000, "depth at and below which nothing is marked, bytes", 0, math.MaxUint32 - 1},
			{"kmax", 6_400_000, "depth at and above which everything is marked (above kmin), bytes", 1, math.MaxUint32},
			{"pmax", 13107, "mark probability just below kmax, Q0.16", 0, math.MaxUint16},
			{"seed", 1, "LFSR seed (switchasic.NewLFSR32)", 0, math.MaxUint64},
		},
		Check: func(p Params) error {
			if p["kmax"] <= p["kmin"] {
				return fmt.Errorf("wred: kmax %d must exceed kmin %d", p["kmax"], p["kmin"])
			}
			return nil
		},
		Input: PortSpec{Kind: Beat, Doc: "one packet's queue depth per valid cycle",
			Fields: []FieldSpec{{"depth", 32, "egress queue depth the packet finds, bytes"}}},
		Output: PortSpec{Kind: Beat, Doc: "the marking decision", Fields: []FieldSpec{
			{"mark", 1, "1: mark CE"},
			{"prob", 17, "mark probability, units of 2^-16 (65536 above kmax)"},
		}},
		New: newWREDModel,
		Stimulus: func(r *rand.Rand, p Params, n int) []Txn {
			out := make([]Txn, n)
			hi := p["kmax"] + p["kmax"]/4
			for i := range out {
				out[i] = beat(uint64(r.Int64N(int64(min(hi, 1<<32-1)))))
			}
			return out
		},
	})
}

type dwrrModel struct {
	s    pipeline.Scheduler
	head []uint32
}

func newDWRRModel(p Params) (Model, error) {
	n := int(p["queues"])
	if n < 1 || n > dwrrMaxQueues {
		return nil, fmt.Errorf("dwrr: %d queues; use 1 to %d", n, dwrrMaxQueues)
	}
	q := make([]uint32, n)
	for i := range q {
		v := p[fmt.Sprintf("quantum%d", i)]
		if v > dwrrMaxQuantum {
			return nil, fmt.Errorf("dwrr: quantum%d of %d bytes is too large", i, v)
		}
		q[i] = uint32(v)
	}
	d, err := pipeline.NewDWRR(q)
	if err != nil {
		return nil, err
	}
	return &dwrrModel{s: d, head: make([]uint32, n)}, nil
}

// Reset implements Model: the state after reset.
func (m *dwrrModel) Reset() { m.s.Reset(); clear(m.head) }

// Apply implements Model: a grant for a dequeue, nothing for a set.
func (m *dwrrModel) Apply(in *Txn, out []Txn) ([]Txn, error) {
	f := in.Fields
	if f[0] == DWRRSetHead {
		if int(f[1]) >= len(m.head) {
			return out, fmt.Errorf("dwrr: queue %d of %d", f[1], len(m.head))
		}
		m.head[f[1]] = uint32(f[2])
		m.s.SetHead(int(f[1]), uint32(f[2]))
		return out, nil
	}
	q := m.s.Pick()
	if q < 0 {
		return append(out, beat(DWRRNone, 0)), nil
	}
	b := m.head[q]
	m.s.Served(q, b, b)
	return append(out, beat(uint64(q), uint64(b))), nil
}

type wredModel struct {
	curve switchasic.WREDCurve
	seed  uint64
	lfsr  *switchasic.LFSR
}

func newWREDModel(p Params) (Model, error) {
	cfg := switchasic.WREDConfig{Enabled: true, KminBytes: p["kmin"], KmaxBytes: p["kmax"], PmaxQ: uint16(p["pmax"])}
	if p["pmax"] > 0xffff {
		return nil, fmt.Errorf("wred: pmax %d above 65535", p["pmax"])
	}
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("wred: %w", err)
	}
	m := &wredModel{curve: switchasic.NewWREDCurve(cfg), seed: p["seed"]}
	m.Reset()
	return m, nil
}

// Reset implements Model: the state after reset.
func (m *wredModel) Reset() { m.lfsr = switchasic.NewLFSR32(m.seed) }

// Apply implements Model: one output, the marking decision and its probability.
func (m *wredModel) Apply(in *Txn, out []Txn) ([]Txn, error) {
	d := in.Fields[0]
	draw := m.lfsr.Draw16()
	var mk uint64
	if m.curve.Mark(d, draw) {
		mk = 1
	}
	return append(out, beat(mk, uint64(m.curve.Probability(d)))), nil
}
