package rtlmodel

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Two devices clocked alike, each in its own domain: the reader sees at
// cycle k the value the writer set at cycle k-1, whichever domain was
// registered first, because domains of the same period and phase evaluate
// together and commit together. Each domain still counts its own edges and
// gets its own edge hook.
func TestDomainsClockedAlikeShareEachEdge(t *testing.T) {
	for _, writerFirst := range []bool{true, false} {
		for _, tick := range []bool{false, true} {
			e := NewEngine(Options{AlwaysTick: tick})
			a, err := e.AddDomain("a/core", 1000, 0)
			require.NoError(t, err)
			b, err := e.AddDomain("b/core", 1000, 0)
			require.NoError(t, err)
			other, err := e.AddDomain("c/core", 1000, 500)
			require.NoError(t, err)
			require.Same(t, a.clk, b.clk)
			require.NotSame(t, a.clk, other.clk)
			wd, rd := a, b
			if !writerFirst {
				wd, rd = b, a
			}
			var reg *Reg[uint64]
			var seen []uint64
			wh, err := e.Add(wd, "writer", fn(func(ed Edge) Wake {
				reg.Set(ed.Cycle)
				if ed.Cycle < 5 {
					return ed.Next()
				}
				return Never
			}))
			require.NoError(t, err)
			reg = NewReg[uint64](wh, "count", 99)
			_, err = e.Add(rd, "reader", fn(func(ed Edge) Wake {
				seen = append(seen, reg.Q())
				if ed.Cycle < 5 {
					return ed.Next()
				}
				return Never
			}))
			require.NoError(t, err)
			hooks := map[string]int{}
			e.Hooks().OnEdge(func(d *Domain, _ uint64, _ Time) { hooks[d.Name()]++ })
			require.NoError(t, e.Run(Forever))
			require.Equal(t, []uint64{99, 0, 1, 2, 3, 4}, seen, "writer first %v, always-tick %v", writerFirst, tick)
			require.Equal(t, uint64(6), a.Edges())
			require.Equal(t, uint64(6), b.Edges())
			require.Equal(t, uint64(0), other.Edges())
			require.Equal(t, uint64(6), a.Cycles())
			require.Equal(t, map[string]int{"a/core": 6, "b/core": 6}, hooks)
		}
	}
}
