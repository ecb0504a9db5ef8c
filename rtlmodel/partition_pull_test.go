package rtlmodel

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// An item sent to another partition is told to its receiver when the
// window that holds its arrival begins, not when it is sent: a sender
// that sends an item every cycle to arrive 20 windows later leaves the
// receiving partition's wake heap at one or two entries (a link in one
// partition, telling its receiver at the send, keeps one per arrival in
// flight), the receiver takes every item at the edge it would in one
// partition, with and without a watch on the link, and while items are in
// flight, told or not, the engine is not idle.
func TestArrivalsBetweenPartitionsToldByTheirWindow(t *testing.T) {
	const items = 200
	run := func(onePart, watched bool) (took []string, maxWakes int, idleMidway bool) {
		e := NewEngine(Options{OnePartition: onePart})
		var l *Link[int]
		var w Watch
		require.NoError(t, e.Partition("tx"))
		dtx, err := e.AddDomain("tx", 1000, 0)
		require.NoError(t, err)
		sent := 0
		tx, err := e.Add(dtx, "tx", fn(func(ed Edge) Wake {
			if sent == items {
				return Never
			}
			l.SendAt(sent, ed.Time+20*Nanosecond)
			sent++
			return ed.Next()
		}))
		require.NoError(t, err)
		require.NoError(t, e.Partition("rx"))
		drx, err := e.AddDomain("rx", 750, 0)
		require.NoError(t, err)
		rx, err := e.Add(drx, "rx", fn(func(ed Edge) Wake {
			for _, p := range e.parts {
				maxWakes = max(maxWakes, p.wakes.len())
			}
			if watched {
				for {
					if _, ok := w.Next(ed.Time); !ok {
						break
					}
				}
			}
			for {
				v, ok := l.Recv()
				if !ok {
					return Never
				}
				took = append(took, fmt.Sprintf("%d@%v", v, ed.Time))
			}
		}))
		require.NoError(t, err)
		l, err = NewLink[int]("l", tx, rx, LinkConfig{Latency: 2, Width: 1})
		require.NoError(t, err)
		if watched {
			l.WatchArrivals(&w, 0)
		}
		require.NoError(t, e.SetLookahead(Nanosecond))
		require.NoError(t, e.Run(items*Nanosecond+5*Nanosecond)) // all sent, the last 15 ns from arriving
		idleMidway = e.Idle()
		require.NoError(t, e.Run(Forever))
		require.True(t, e.Idle())
		return took, maxWakes, idleMidway
	}
	one, wakesOne, idleOne := run(true, false)
	require.Len(t, one, items)
	require.False(t, idleOne, "one partition, items in flight")
	require.Greater(t, wakesOne, 15, "in one partition the link keeps a wake per arrival in flight")
	for _, watched := range []bool{false, true} {
		two, wakesTwo, idleTwo := run(false, watched)
		require.Equal(t, one, two, "watched %v: the receiver takes each item at the same edge", watched)
		require.LessOrEqual(t, wakesTwo, 2, "watched %v: the receiving partition holds a window's arrivals", watched)
		require.False(t, idleTwo, "watched %v: items in flight, not yet told", watched)
	}
}
