package explore

import (
	"testing"
)

// ParseSweep never panics, and a sweep it accepts expands to points with
// distinct ids.
func FuzzParseSweep(f *testing.F) {
	f.Add([]byte("name: s\nevaluator: count\ndesign: {kind: grid}\nparameters:\n  - {name: x, values: ['1', '2']}\n  - {name: y, min: 0, max: 1, steps: 3}\nmetrics: [f]\n"))
	f.Add([]byte("name: s\nevaluator: count\nseed: 3\ndesign: {kind: lhs, samples: 5}\nparameters:\n  - {name: x, min: 1, max: 100, scale: log}\nmetrics: [f, g]\npareto: {x: f, x_goal: min, y: g, y_goal: max}\n"))
	f.Add([]byte("name: b\nevaluator: budget\nbase: {latency.payload: 64}\ndesign: {kind: random, samples: 2}\nparameters:\n  - {name: switch.mmu_cycles, min: 1, max: 100, integer: true}\nmetrics: [e2e_ns]\n"))
	f.Add([]byte("evaluator: incast\ndesign: {kind: grid}\nparameters: [{name: senders, values: ['2']}]\nmetrics: [drops]\n"))
	f.Add([]byte("- a\n- b\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4096 {
			return
		}
		s, err := ParseSweep(data)
		if err != nil {
			return
		}
		pts, err := s.Points()
		if err != nil {
			t.Fatalf("accepted sweep does not expand: %v", err)
		}
		seen := map[string]bool{}
		for i, p := range pts {
			if seen[p.ID] || p.Index != i {
				t.Fatalf("point %d: id %s repeated or index %d", i, p.ID, p.Index)
			}
			seen[p.ID] = true
		}
	})
}

// ParseShard accepts exactly i/N with 0 <= i < N, and String writes it back.
func FuzzParseShard(f *testing.F) {
	for _, s := range []string{"0/1", "3/8", "8/8", "-1/2", "1/0", "a/b", "", "1//2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sh, err := ParseShard(s)
		if err != nil {
			return
		}
		if sh.N < 1 || sh.I < 0 || sh.I >= sh.N {
			t.Fatalf("%q accepted as %+v", s, sh)
		}
		again, err := ParseShard(sh.String())
		if err != nil || again != sh {
			t.Fatalf("%q: %v does not read back (%v)", s, sh, err)
		}
	})
}
