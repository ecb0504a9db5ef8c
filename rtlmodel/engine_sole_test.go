package rtlmodel

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// soleDevices builds two partitions: in "a", x plans itself at random
// cycles and writes a register at each, y is woken by x's link and z
// both plans itself and is woken by a link from partition b; each logs the
// cycle and the register it reads. Components due at one edge read the
// register as it was before it, those of a later edge what x wrote, so
// the log shows whether they shared their edge. It returns the log.
func soleDevices(t *testing.T, opts Options) []string {
	e := NewEngine(opts)
	require.NoError(t, e.Partition("a"))
	da, err := e.AddDomain("a", 1000, 0)
	require.NoError(t, err)
	var log []string
	var reg *Reg[int]
	var xy, bz *Link[int]
	var x, y, z, b *Handle
	// x and z act at the cycles they planned only, so that evaluating them
	// at every edge (AlwaysTick) changes nothing
	xNext, zNext := uint64(0), uint64(0)
	x, err = e.Add(da, "x", fn(func(ed Edge) Wake {
		if ed.Cycle < xNext {
			return Wake(xNext)
		}
		if ed.Cycle > 400 {
			return Never
		}
		reg.Set(int(ed.Cycle))
		if x.RNG().Intn(2) == 0 && xy.CanSend() {
			xy.Send(int(ed.Cycle))
		}
		log = append(log, fmt.Sprintf("x %d", ed.Cycle))
		xNext = ed.Cycle + 1 + uint64(x.RNG().Intn(3))
		return Wake(xNext)
	}))
	require.NoError(t, err)
	y, err = e.Add(da, "y", fn(func(ed Edge) Wake {
		for {
			v, ok := xy.Recv()
			if !ok {
				break
			}
			log = append(log, fmt.Sprintf("y %d took %d reads %d", ed.Cycle, v, reg.Q()))
		}
		return Never
	}))
	require.NoError(t, err)
	z, err = e.Add(da, "z", fn(func(ed Edge) Wake {
		for {
			v, ok := bz.Recv()
			if !ok {
				break
			}
			log = append(log, fmt.Sprintf("z %d took %d reads %d", ed.Cycle, v, reg.Q()))
		}
		if ed.Cycle < zNext {
			return Wake(zNext)
		}
		if ed.Cycle > 400 {
			return Never
		}
		log = append(log, fmt.Sprintf("z %d reads %d", ed.Cycle, reg.Q()))
		zNext = ed.Cycle + 2 + uint64(z.RNG().Intn(4))
		return Wake(zNext)
	}))
	require.NoError(t, err)
	reg = NewReg(x, "x/reg", -1)
	require.NoError(t, e.Partition("b"))
	db, err := e.AddDomain("b", 1000, 0)
	require.NoError(t, err)
	bNext := uint64(0)
	b, err = e.Add(db, "b", fn(func(ed Edge) Wake {
		if ed.Cycle < bNext {
			return Wake(bNext)
		}
		if ed.Cycle > 400 {
			return Never
		}
		if b.RNG().Intn(3) == 0 {
			bz.Send(int(ed.Cycle))
		}
		bNext = ed.Cycle + 1
		return Wake(bNext)
	}))
	require.NoError(t, err)
	xy, err = NewLink[int]("xy", x, y, LinkConfig{Latency: 1, Width: 1})
	require.NoError(t, err)
	bz, err = NewLink[int]("bz", b, z, LinkConfig{Latency: 3, Width: 1})
	require.NoError(t, err)
	require.NoError(t, e.Run(Forever))
	return log
}

// The edges that run one component at once (Engine.step) run the same
// components, in the same edges, as always ticking every component does:
// where two components of a partition are due at one time, they share one
// edge and read the register each other writes as it was before it.
func TestOneDueComponentRunsAsEveryEdgeWould(t *testing.T) {
	want := soleDevices(t, Options{AlwaysTick: true})
	got := soleDevices(t, Options{})
	require.Equal(t, want, got)
	require.Equal(t, want, soleDevices(t, Options{OnePartition: true}))
	shared := 0
	for i := 1; i < len(got); i++ {
		var c1, c2 int
		var n1, n2 string
		fmt.Sscanf(got[i-1], "%s %d", &n1, &c1)
		fmt.Sscanf(got[i], "%s %d", &n2, &c2)
		if c1 == c2 && n1 != n2 {
			shared++
		}
	}
	require.Greater(t, shared, 50, "components sharing an edge")
}
