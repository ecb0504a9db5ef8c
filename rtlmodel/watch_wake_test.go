package rtlmodel

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// A component that takes its events from Watches is evaluated at exactly
// the edges it is without them (every arrival and every credit return),
// while its partition's wake heap holds a few entries instead of one per
// event time: senders in two partitions, asleep for a few cycles between
// their own edges, send at random edges with random arrival times over
// eight credited links, and the receiver and one sender (whose credit
// returns wake it: it reads its credits at every edge) record the edges they are evaluated at, with and
// without the watches, and with a receiver that takes one event from its
// watch per evaluation and leaves the rest.
func TestWatchWakesAtTheEdgesLinksWould(t *testing.T) {
	run := func(watched, takeAll, onePart bool) (rxEdges, txEdges []Time, maxWakes int) {
		e := NewEngine(Options{OnePartition: onePart})
		var arrivals, credits Watch
		var links [8]*Link[int]
		rng := NewRNG(9, "watch-wake")
		senders := make([]*Handle, 2)
		for s := range senders {
			s := s
			part := fmt.Sprintf("tx%d", s)
			require.NoError(t, e.Partition(part))
			d, err := e.AddDomain(part, Time(800+200*s), 0)
			require.NoError(t, err)
			h, err := e.Add(d, part, fn(func(ed Edge) Wake {
				if s == 0 {
					txEdges = append(txEdges, ed.Time)
					if watched {
						for {
							if _, ok := credits.Next(ed.Time); !ok {
								break
							}
						}
					}
				}
				for i := s; i < len(links); i += 2 {
					if rng.Intn(3) == 0 && links[i].CanSend() {
						links[i].SendAt(int(ed.Cycle), ed.Time+Time(2000+rng.Intn(20000)))
					}
					// reading its credits after sending, it is woken by
					// every return while some are out, as by its watch
					links[i].Credits()
				}
				if ed.Cycle < 2000 {
					// asleep for a few cycles: credit returns wake it between
					return Wake(ed.Cycle + 1 + uint64(rng.Intn(8)))
				}
				return Never
			}))
			require.NoError(t, err)
			senders[s] = h
		}
		require.NoError(t, e.Partition("rx"))
		drx, err := e.AddDomain("rx", 625, 0)
		require.NoError(t, err)
		rx, err := e.Add(drx, "rx", fn(func(ed Edge) Wake {
			rxEdges = append(rxEdges, ed.Time)
			for _, p := range e.parts {
				maxWakes = max(maxWakes, p.wakes.len())
			}
			if watched && takeAll {
				for {
					i, ok := arrivals.Next(ed.Time)
					if !ok {
						break
					}
					for {
						if _, ok := links[i].Recv(); !ok {
							break
						}
					}
				}
				return Never
			}
			if watched {
				// one event a time, the rest left in the watch
				arrivals.Next(ed.Time)
			}
			for _, l := range links {
				for {
					if _, ok := l.Recv(); !ok {
						break
					}
				}
			}
			return Never
		}))
		require.NoError(t, err)
		for i := range links {
			links[i], err = NewLink[int](fmt.Sprintf("l%d", i), senders[i%2], rx,
				LinkConfig{Latency: 2, Width: 1, Credits: 64, CreditLatency: 3})
			require.NoError(t, err)
			if watched {
				links[i].WatchArrivals(&arrivals, i)
				if i%2 == 0 {
					links[i].WatchCredits(&credits, i)
				}
			}
		}
		if !onePart {
			require.Equal(t, 3, e.Partitions())
			require.NoError(t, e.SetLookahead(1250))
		}
		require.NoError(t, e.Run(5_000_000))
		return rxEdges, txEdges, maxWakes
	}
	rxPlain, txPlain, _ := run(false, true, false)
	rxWatched, txWatched, _ := run(true, true, false)
	require.Greater(t, len(rxPlain), 1000)
	require.Equal(t, rxPlain, rxWatched, "receiver edges")
	require.Equal(t, txPlain, txWatched, "sender edges")
	// a receiver that leaves due events in its watch is woken all the same
	rxLeft, txLeft, _ := run(true, false, false)
	require.Equal(t, rxPlain, rxLeft, "receiver edges, events left in the watch")
	require.Equal(t, txPlain, txLeft, "sender edges, events left in the watch")
	// Between partitions, arrivals are told a window at a time, so the
	// wake heap holds one window's either way; in one partition, where a
	// link wakes its receiver when the item is sent, the watch keeps one
	// entry where the link would keep one per arrival time. (The senders
	// share one RNG, so the edges differ from the partitioned run's.)
	rxOne, txOne, wakesPlain := run(false, true, true)
	rxOneW, txOneW, wakesWatched := run(true, true, true)
	require.Equal(t, rxOne, rxOneW, "receiver edges, one partition")
	require.Equal(t, txOne, txOneW, "sender edges, one partition")
	t.Logf("receiver edges %d, sender edges %d, largest wake heap in one partition %d with watches, %d without", len(rxWatched), len(txWatched), wakesWatched, wakesPlain)
	require.Less(t, wakesWatched, wakesPlain/4, "largest wake heap with watches %d, without %d", wakesWatched, wakesPlain)
}
