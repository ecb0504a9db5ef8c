package explore

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
)

// Point is one evaluation of a sweep: its values of the swept parameters,
// a stable id and its seed.
type Point struct {
	// ID is a hash of the evaluator, the base values, Params and what the
	// point reads (InputEvaluator): the same point of the same sweep over
	// the same inputs has the same id on every run.
	ID string `json:"id"`
	// Index is the point's place in the design.
	Index int `json:"index"`
	// Params are the swept parameters' values, in the sweep's order.
	Params []Assignment `json:"params"`
	// Seed derives from the sweep seed and what the id hashes.
	Seed uint64 `json:"seed"`
}

// MaxPoints bounds the points of one sweep.
const MaxPoints = 100_000

// check validates a parameter for a design kind.
func (p Parameter) check(kind string) error {
	ranged := p.Min != nil || p.Max != nil
	switch {
	case p.Name == "":
		return fmt.Errorf("no name")
	case len(p.Values) > 0 && ranged:
		return fmt.Errorf("give values or min/max, not both")
	case len(p.Values) == 0 && !ranged:
		return fmt.Errorf("give values or min/max")
	case ranged && (p.Min == nil || p.Max == nil):
		return fmt.Errorf("a range needs both min and max")
	case ranged && (math.IsNaN(*p.Min) || math.IsInf(*p.Min, 0) || math.IsNaN(*p.Max) || math.IsInf(*p.Max, 0)):
		return fmt.Errorf("min and max must be finite")
	case ranged && *p.Max < *p.Min:
		return fmt.Errorf("max %g < min %g", *p.Max, *p.Min)
	case p.Scale != "" && p.Scale != "linear" && p.Scale != "log":
		return fmt.Errorf("scale %q: want linear or log", p.Scale)
	case ranged && p.Scale == "log" && *p.Min <= 0:
		return fmt.Errorf("a log scale needs min > 0")
	case ranged && kind == "grid" && p.Steps < 1:
		return fmt.Errorf("a grid over a range needs steps >= 1")
	case p.Steps > MaxPoints:
		return fmt.Errorf("steps %d: at most %d", p.Steps, MaxPoints)
	case kind != "grid" && p.Steps != 0:
		return fmt.Errorf("steps is for grids; %s draws samples", kind)
	}
	seen := map[string]bool{}
	for _, v := range p.Values {
		if seen[v] {
			return fmt.Errorf("value %q twice", v)
		}
		seen[v] = true
	}
	return nil
}

// at maps u in [0, 1] onto the parameter's range and formats it.
func (p Parameter) at(u float64) string {
	lo, hi := *p.Min, *p.Max
	var v float64
	if p.Scale == "log" {
		v = math.Exp(math.Log(lo) + u*(math.Log(hi)-math.Log(lo)))
	} else {
		v = lo + u*(hi-lo)
	}
	v = min(max(v, lo), hi)
	if p.Integer {
		return strconv.FormatFloat(math.Round(v), 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}

// gridValues lists the values a grid takes.
func (p Parameter) gridValues() []string {
	if len(p.Values) > 0 {
		return p.Values
	}
	out := make([]string, 0, p.Steps)
	for i := 0; i < p.Steps; i++ {
		u := 0.0
		if p.Steps > 1 {
			u = float64(i) / float64(p.Steps-1)
		}
		if v := p.at(u); len(out) == 0 || out[len(out)-1] != v {
			out = append(out, v)
		}
	}
	return out
}

// draw maps u in [0, 1) to a value: a list index or a point of the range.
func (p Parameter) draw(u float64) string {
	if len(p.Values) > 0 {
		return p.Values[min(int(u*float64(len(p.Values))), len(p.Values)-1)]
	}
	return p.at(u)
}

// Points expands the design. Points with the same values appear once, in
// the place of their first appearance.
func (s *Sweep) Points() ([]Point, error) {
	var rows [][]Assignment
	switch s.Design.Kind {
	case "grid":
		rows = s.grid()
	case "random":
		rows = s.random()
	case "lhs":
		rows = s.lhs()
	default:
		return nil, fmt.Errorf("design: kind %q: want grid, random or lhs", s.Design.Kind)
	}
	ev, err := s.evaluator()
	if err != nil {
		return nil, err
	}
	inputs, _ := ev.(InputEvaluator)
	var pts []Point
	seen := map[string]bool{}
	for _, r := range rows {
		key := s.pointKey(inputs, r)
		p := Point{ID: pointID(key), Params: r, Seed: s.pointSeed(key)}
		if seen[p.ID] {
			continue
		}
		seen[p.ID] = true
		p.Index = len(pts)
		pts = append(pts, p)
	}
	return pts, nil
}

// grid is every combination, the last parameter varying fastest.
func (s *Sweep) grid() [][]Assignment {
	rows := [][]Assignment{nil}
	for _, p := range s.Parameters {
		var next [][]Assignment
		for _, r := range rows {
			for _, v := range p.gridValues() {
				next = append(next, append(slicesClone(r), Assignment{p.Name, v}))
			}
		}
		rows = next
	}
	return rows
}

// rng is the design's random stream: from the sweep seed and the kind.
func (s *Sweep) rng() *rand.Rand {
	h := sha256.Sum256([]byte(fmt.Sprintf("explore/design/%s/%d", s.Design.Kind, s.Seed)))
	return rand.New(rand.NewPCG(binary.LittleEndian.Uint64(h[:8]), binary.LittleEndian.Uint64(h[8:16])))
}

// random draws every parameter of every sample uniformly (a log range
// uniformly in its logarithm).
func (s *Sweep) random() [][]Assignment {
	r := s.rng()
	rows := make([][]Assignment, s.Design.Samples)
	for i := range rows {
		for _, p := range s.Parameters {
			rows[i] = append(rows[i], Assignment{p.Name, p.draw(r.Float64())})
		}
	}
	return rows
}

// lhs is a Latin hypercube: each parameter's unit interval is cut into n
// equal strata and a random permutation gives each sample its own
// stratum, with a uniform draw inside it.
func (s *Sweep) lhs() [][]Assignment {
	r := s.rng()
	n := s.Design.Samples
	rows := make([][]Assignment, n)
	for _, p := range s.Parameters {
		perm := r.Perm(n)
		for i := range rows {
			u := (float64(perm[i]) + r.Float64()) / float64(n)
			rows[i] = append(rows[i], Assignment{p.Name, p.draw(u)})
		}
	}
	return rows
}

// pointKey is what a point's id and seed hash: the evaluator, the base
// values, the point's values r and, for an evaluator that reads inputs
// (ev, nil when it reads none), what they hold.
func (s *Sweep) pointKey(ev InputEvaluator, r []Assignment) string {
	key := "evaluator=" + s.Evaluator + "\n" + canonical(s.base) + "--\n" + canonical(r)
	if ev != nil {
		key += "-- inputs\n" + ev.Inputs(append(slicesClone(s.base), r...))
	}
	return key
}

// pointID is 16 hex digits of a point key's SHA-256.
func pointID(key string) string {
	h := sha256.Sum256([]byte(key))
	return hex.EncodeToString(h[:8])
}

// pointSeed derives a point's seed from the sweep seed and its point key.
func (s *Sweep) pointSeed(key string) uint64 {
	h := sha256.Sum256([]byte(fmt.Sprintf("seed/%d\n%s", s.Seed, key)))
	return binary.LittleEndian.Uint64(h[:8])
}
