package rtlmodel

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// pingPong is two devices in partitions of their own (unless onePart),
// clocked at 1 ns, each sending the other an item every cycle for delay
// later (SendAt) over links of one cycle that declare the lookahead
// declared (0: none), the engine's being 1 ns. It returns what each device
// took and when, and the lengths of the runs of edges each device made
// without the other running in between.
func pingPong(t *testing.T, onePart bool, delay, declared Time, cycles int) (took [2][]string, runs [2][]int, err error) {
	e := NewEngine(Options{OnePartition: onePart})
	var links [2]*Link[int]
	var hs [2]*Handle
	last := -1
	for i := range hs {
		name := fmt.Sprintf("dev%d", i)
		require.NoError(t, e.Partition(name))
		d, err := e.AddDomain(name, 1000, 0)
		require.NoError(t, err)
		sent := 0
		hs[i], err = e.Add(d, name, fn(func(ed Edge) Wake {
			if last == i {
				runs[i][len(runs[i])-1]++
			} else {
				runs[i] = append(runs[i], 1)
				last = i
			}
			for {
				v, ok := links[1-i].Recv()
				if !ok {
					break
				}
				took[i] = append(took[i], fmt.Sprintf("%d at %v", v, ed.Time))
			}
			if sent < cycles {
				links[i].SendAt(sent, ed.Time+delay)
				sent++
			}
			return ed.Next()
		}))
		require.NoError(t, err)
	}
	for i := range links {
		var err error
		links[i], err = NewLink[int](fmt.Sprintf("dev%d>dev%d", i, 1-i), hs[i], hs[1-i], LinkConfig{Latency: 1, Width: 1})
		require.NoError(t, err)
		require.NoError(t, links[i].SetLookahead(declared))
	}
	require.NoError(t, e.SetLookahead(Nanosecond))
	err = e.Run(Time(cycles+20) * Nanosecond)
	return took, runs, err
}

// A link between partitions that declares a lookahead longer than the
// engine's (its items are sent for 8 ns later) lets each device run up to
// that past the other: runs of up to 16 edges where the engine's 1 ns
// gives runs of one or two, with every item taken at the edge of a run in
// one partition.
func TestLinkLookaheadLengthensTheWindows(t *testing.T) {
	const cycles = 200
	want, _, err := pingPong(t, true, 8*Nanosecond, 0, cycles)
	require.NoError(t, err)
	require.Len(t, want[0], cycles)
	require.Len(t, want[1], cycles)
	longest := func(runs [2][]int) int {
		n := 0
		for _, r := range runs {
			for _, k := range r {
				n = max(n, k)
			}
		}
		return n
	}
	took, runs, err := pingPong(t, false, 8*Nanosecond, 0, cycles)
	require.NoError(t, err)
	require.Equal(t, want, took)
	require.LessOrEqual(t, longest(runs), 2, "the engine's lookahead: %v", runs)

	took, runs, err = pingPong(t, false, 8*Nanosecond, 8*Nanosecond, cycles)
	require.NoError(t, err)
	require.Equal(t, want, took)
	require.Equal(t, 16, longest(runs), "the links' lookahead: %v", runs)
	for i, r := range runs {
		require.Less(t, len(r), cycles/6, "dev%d runs %d times", i, len(r))
	}
}

// An item that arrives sooner after its edge than its link's declared
// lookahead stops the run with an error naming the link and the
// lookahead, as one that breaks the engine's does.
func TestLinkLookaheadBrokenStopsTheRun(t *testing.T) {
	_, _, err := pingPong(t, false, 5*Nanosecond, 8*Nanosecond, 50)
	require.Error(t, err)
	require.ErrorContains(t, err, "link dev")
	require.ErrorContains(t, err, "within the lookahead of 8ns")

	e := NewEngine(Options{})
	d, err := e.AddDomain("d", 1000, 0)
	require.NoError(t, err)
	h, err := e.Add(d, "a", fn(func(Edge) Wake { return Never }))
	require.NoError(t, err)
	l, err := NewLink[int]("a>a", h, h, LinkConfig{Latency: 1, Width: 1})
	require.NoError(t, err)
	require.NoError(t, e.Run(Nanosecond))
	require.ErrorContains(t, l.SetLookahead(Nanosecond), "after the run began")
}

// MinLatency is the least time from the sending edge to visibility: the
// fixed latency and the receive delay; the receive delay adds to a
// declared lookahead too.
func TestLinkMinLatency(t *testing.T) {
	e := NewEngine(Options{})
	d, err := e.AddDomain("d", 800, 0)
	require.NoError(t, err)
	a, err := e.Add(d, "a", fn(func(Edge) Wake { return Never }))
	require.NoError(t, err)
	b, err := e.Add(d, "b", fn(func(Edge) Wake { return Never }))
	require.NoError(t, err)
	l, err := NewLink[int]("a>b", a, b, LinkConfig{Latency: 125, Width: 1})
	require.NoError(t, err)
	require.Equal(t, 100*Nanosecond, l.MinLatency())
	require.Zero(t, l.Lookahead(), "none declared")
	l.DelayArrivals(80)
	require.Equal(t, 164*Nanosecond, l.MinLatency())
	require.NoError(t, l.SetLookahead(200*Nanosecond))
	require.Equal(t, 264*Nanosecond, l.Lookahead(), "the receive delay adds to it")
}
