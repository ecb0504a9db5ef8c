package rtlmodel

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// twoDevices builds two devices, each a sender and a receiver on its own
// clock, that send random bursts to each other over credited links of
// crossLatency cycles both ways (items and credits) and to themselves over
// a 1-cycle link. With parts, each device is a partition. It returns the
// engine and each receiver's log.
func twoDevices(t *testing.T, opts Options, parts bool, lookahead Time, crossLatency uint64) (*Engine, [][]string) {
	e := NewEngine(opts)
	logs := make([][]string, 4)
	type device struct {
		send, recv *Handle
		local      *Link[int]
		cross      *Link[int] // to the other device
		in         []*Link[int]
	}
	devs := make([]*device, 2)
	periods := []Time{800, 1000}
	for i := range devs {
		if parts {
			require.NoError(t, e.Partition(fmt.Sprintf("dev%d", i)))
		}
		d, err := e.AddDomain(fmt.Sprintf("dev%d", i), periods[i], Time(i)*300)
		require.NoError(t, err)
		dv := &device{}
		devs[i] = dv
		idx := i
		sent, next := 0, uint64(0)
		dv.send, err = e.Add(d, fmt.Sprintf("dev%d/send", i), fn(func(ed Edge) Wake {
			if sent == 300 {
				return Never
			}
			if ed.Cycle < next {
				return Wake(next)
			}
			l := dv.local
			if dv.send.RNG().Intn(2) == 0 {
				l = dv.cross
			}
			if !l.CanSend() {
				logs[2+idx] = append(logs[2+idx], fmt.Sprintf("cycle %d waits on %s", ed.Cycle, l.Name()))
				return ed.Next()
			}
			l.Send(sent)
			sent++
			next = ed.Cycle + 1 + uint64(dv.send.RNG().Intn(2))
			return Wake(next)
		}))
		require.NoError(t, err)
		hold := uint64(0)
		dv.recv, err = e.Add(d, fmt.Sprintf("dev%d/recv", i), fn(func(ed Edge) Wake {
			if ed.Cycle < hold {
				return Wake(hold)
			}
			if ph := ed.Cycle % 400; ph < 250 {
				return Wake(ed.Cycle - ph + 250) // stalls, so credits run out
			}
			got := false
			for k, l := range dv.in {
				if v, ok := l.Recv(); ok {
					logs[idx] = append(logs[idx], fmt.Sprintf("cycle %d in %d got %d", ed.Cycle, k, v))
					got = true
				}
			}
			if !got {
				return Never
			}
			hold = ed.Cycle + uint64(dv.recv.RNG().Intn(4))
			return ed.Next()
		}))
		require.NoError(t, err)
	}
	for i, dv := range devs {
		var err error
		dv.local, err = NewLink[int](fmt.Sprintf("dev%d>self", i), dv.send, dv.recv, LinkConfig{Latency: 1, Width: 1, Credits: 3, CreditLatency: 1})
		require.NoError(t, err)
		peer := devs[1-i]
		cfg := LinkConfig{Latency: crossLatency, Width: 1, CreditLatency: crossLatency}
		cfg.Credits = CreditRoundTrip(cfg, dv.send.Domain(), peer.recv.Domain())
		dv.cross, err = NewLink[int](fmt.Sprintf("dev%d>dev%d", i, 1-i), dv.send, peer.recv, cfg)
		require.NoError(t, err)
		dv.in = append(dv.in, dv.local)
		peer.in = append(peer.in, dv.cross)
	}
	require.NoError(t, e.SetLookahead(lookahead))
	return e, logs
}

// Devices in partitions of their own, each run up to the lookahead past the
// other, see exactly what they see run edge by edge in one partition: with
// a window of the lookahead, of one edge or shorter than a clock period (so that most
// windows hold no edge of one of the devices), idle-skipping,
// always-ticked or shuffled. The
// links between them go both ways, so one of the two always reaches a
// partition that has already run the window.
func TestPartitionsRunAsOne(t *testing.T) {
	const crossLatency = 40 // cycles: more than 30 ns either way
	run := func(opts Options, parts bool, lookahead Time, sweep ...string) [][]string {
		e, logs := twoDevices(t, opts, parts, lookahead, crossLatency)
		if sweep != nil {
			require.NoError(t, e.SetSweepOrder(sweep))
		}
		require.NoError(t, e.Run(Forever))
		if parts {
			require.Equal(t, 2, e.Partitions())
		}
		return logs
	}
	want := run(Options{Seed: 3}, false, 0)
	require.Greater(t, len(want[0]), 250)
	require.Greater(t, len(want[1]), 250)
	for _, waits := range want[2:] {
		require.True(t, slices.ContainsFunc(waits, func(s string) bool { return strings.Contains(s, ">dev") }),
			"a sender should wait for credits across")
	}
	cases := []struct {
		name      string
		opts      Options
		lookahead Time
	}{
		{"windows of the lookahead", Options{Seed: 3}, 30 * Nanosecond},
		{"a window per edge", Options{Seed: 3}, 0},
		{"windows shorter than a clock period", Options{Seed: 3}, 500},
		{"always-tick", Options{Seed: 3, AlwaysTick: true}, 30 * Nanosecond},
		{"shuffled", Options{Seed: 3, ShuffleEval: true, ShuffleSeed: 5}, 30 * Nanosecond},
	}
	for _, c := range cases {
		require.Equal(t, want, run(c.opts, true, c.lookahead), c.name)
		require.Equal(t, want, run(c.opts, true, c.lookahead, "dev1", "dev0"), c.name+", the second made swept first")
	}
}

// A sweep order names every partition once, before the run.
func TestSweepOrderNamesEachPartitionOnce(t *testing.T) {
	e, _ := twoDevices(t, Options{Seed: 3}, true, 30*Nanosecond, 40)
	for _, c := range []struct {
		names []string
		want  string
	}{
		{[]string{"dev0"}, "sweep order of 1 partitions, for 2"},
		{[]string{"dev0", "dev2"}, `no partition "dev2"`},
		{[]string{"dev1", "dev1"}, `partition "dev1" named twice`},
	} {
		require.ErrorContains(t, e.SetSweepOrder(c.names), c.want, "%v", c.names)
	}
	require.NoError(t, e.SetSweepOrder([]string{"dev1", "dev0"}))
	require.NoError(t, e.Run(100*Nanosecond))
	require.ErrorContains(t, e.SetSweepOrder([]string{"dev0", "dev1"}), "after the run began")
}

// A link between partitions faster than the lookahead, either way, stops
// the run with an error naming it, instead of delivering into time its
// receiver may have run already (partitions run up to a lookahead apart).
func TestPartitionLinkFasterThanLookahead(t *testing.T) {
	e, _ := twoDevices(t, Options{Seed: 3}, true, 32*Nanosecond, 5)
	err := e.Run(Forever)
	require.Error(t, err)
	require.Contains(t, err.Error(), "dev0>dev1", "the first to send")
	require.Contains(t, err.Error(), "lookahead")
}

// Partition goes back to a partition made earlier, so a device's parts
// built later (its host software) can join it.
func TestPartitionRejoin(t *testing.T) {
	e := NewEngine(Options{})
	require.NoError(t, e.Partition("a"))
	_, err := e.AddDomain("a", 1000, 0)
	require.NoError(t, err)
	require.NoError(t, e.Partition("b"))
	_, err = e.AddDomain("b", 1000, 0)
	require.NoError(t, err)
	require.NoError(t, e.Partition("a"))
	_, err = e.AddDomain("a2", 1000, 0)
	require.NoError(t, err)
	require.Equal(t, 2, e.Partitions())
	require.Same(t, e.parts[0], e.domains[2].clk.part)
	require.Same(t, e.domains[0].clk, e.domains[2].clk, "a domain clocked alike in the same partition shares its clock")
}

// A partition beginning a window reads ahead the items that arrive in it
// on each link from another partition, through the link's ReadAheadWith
// function, and nothing that arrives later; a link within a partition is
// not read ahead unless asked to. Only links delivered to since a window
// last found them empty are looked at.
func TestPartitionReadsInboundItemsAhead(t *testing.T) {
	e := NewEngine(Options{})
	var handles [2]*Handle
	for i := range handles {
		require.NoError(t, e.Partition(fmt.Sprintf("p%d", i)))
		d, err := e.AddDomain(fmt.Sprintf("d%d", i), 1000, 0)
		require.NoError(t, err)
		handles[i], err = e.Add(d, fmt.Sprintf("c%d", i), fn(func(Edge) Wake { return Never }))
		require.NoError(t, err)
	}
	cross, err := NewLink[int]("cross", handles[0], handles[1], LinkConfig{Latency: 10, Width: 1})
	require.NoError(t, err)
	inner, err := NewLink[int]("inner", handles[1], handles[1], LinkConfig{Latency: 1, Width: 1})
	require.NoError(t, err)
	var read []int
	cross.ReadAheadWith(func(v int) uint64 { read = append(read, v); return uint64(v) })
	inner.ReadAheadWith(func(v int) uint64 { read = append(read, -v); return 0 })
	p := e.parts[1]
	require.Empty(t, p.arriving)
	e.now = 0
	cross.Send(1) // arrives at 10 ns
	e.now = 1000
	cross.Send(2) // at 11 ns
	e.now = 5000
	cross.Send(3) // at 15 ns
	inner.Send(4)
	require.Equal(t, []readerAhead{cross}, p.arriving)
	p.warm(e, 12*Nanosecond)
	require.Equal(t, []int{1, 2}, read)
	// asked to, a link within the partition is read ahead too, once
	inner.ReadAheadInWindows()
	inner.ReadAheadInWindows()
	e.now = 6000
	inner.Send(5)
	read = nil
	p.warm(e, 16*Nanosecond)
	require.Equal(t, []int{1, 2, 3, -4, -5}, read)
	// emptied, the links leave the list at the next window, and come
	// back with their next delivery
	e.now = 20 * Nanosecond
	for _, l := range []*Link[int]{cross, inner} {
		for {
			if _, ok := l.Recv(); !ok {
				break
			}
		}
	}
	read = nil
	p.warm(e, 30*Nanosecond)
	require.Empty(t, read)
	require.Empty(t, p.arriving)
	cross.Send(6) // at 30 ns
	p.warm(e, 40*Nanosecond)
	require.Equal(t, []int{6}, read)
	require.Equal(t, []readerAhead{cross}, p.arriving)
}

// An engine is idle once nothing is due in any partition: not before it
// starts, nor while a component plans an edge, but after the last plan
// has run, whether a partition or several.
func TestEngineIdle(t *testing.T) {
	for _, parts := range []int{1, 3} {
		e := NewEngine(Options{})
		for i := 0; i < parts; i++ {
			require.NoError(t, e.Partition(fmt.Sprintf("p%d", i)))
			d, err := e.AddDomain(fmt.Sprintf("d%d", i), 1000, 0)
			require.NoError(t, err)
			last := uint64(10 * (i + 1))
			_, err = e.Add(d, fmt.Sprintf("c%d", i), fn(func(ed Edge) Wake {
				if ed.Cycle < last {
					return Wake(last)
				}
				return Never
			}))
			require.NoError(t, err)
		}
		require.False(t, e.Idle(), "not started")
		require.NoError(t, e.Run(15*Nanosecond))
		require.Equal(t, parts > 1, !e.Idle(), "%d partitions: a plan at %d ns is left", parts, 10*parts)
		require.NoError(t, e.Run(Forever))
		require.True(t, e.Idle())
	}
}
