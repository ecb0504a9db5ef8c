package rtlmodel

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

// frameItem stands for a link item larger than a word (a frame with its
// timing), which an interface holds only by allocating.
type frameItem struct {
	id, a, b, c uint64
}

// A transfer listener that reads each item with TransferValue and keeps
// none allocates nothing per transfer: the engine refills one event, and
// the item stays in its link while the listeners run. Value and Item give
// the same item, TransferValue of another type gives nothing, and a
// noted transfer (NoteTransfer) reads the same ways.
func TestTransferValueReadsItemsWithoutAllocating(t *testing.T) {
	e := NewEngine(Options{})
	d, err := e.AddDomain("core", 1000, 0)
	require.NoError(t, err)
	var l *Link[frameItem]
	const items = 20000
	sent := uint64(0)
	var rh *Handle
	sh, err := e.Add(d, "sender", fn(func(ed Edge) Wake {
		if sent == items {
			return Never
		}
		sent++
		l.Send(frameItem{id: sent, a: 2 * sent})
		if sent == items/2 {
			e.NoteTransfer("noted", "sender", "receiver", d, ed.Time, ed.Time+1, frameItem{id: 0})
		}
		return ed.Next()
	}))
	require.NoError(t, err)
	got := uint64(0)
	rh, err = e.Add(d, "receiver", fn(func(ed Edge) Wake {
		for {
			if _, ok := l.Recv(); !ok {
				return Never
			}
			got++
		}
	}))
	require.NoError(t, err)
	l, err = NewLink[frameItem]("l", sh, rh, LinkConfig{Latency: 1, Width: 1})
	require.NoError(t, err)
	l.Format = func(f frameItem) string { return "frame" }
	var seen, sum, noted uint64
	var checked bool
	e.Hooks().OnTransfer(func(ev *TransferEvent) {
		seen++
		f, ok := TransferValue[frameItem](ev)
		if !ok {
			t.Fatalf("%s: the item is not read as a frameItem", ev.Link)
		}
		if ev.Link == "noted" {
			noted++
			require.Equal(t, frameItem{}, f)
			require.Equal(t, frameItem{}, ev.Value())
			return
		}
		sum += f.id
		if _, other := TransferValue[int](ev); other {
			t.Fatal("an item read as another type")
		}
		if !checked {
			checked = true
			require.Equal(t, f, ev.Value())
			require.Equal(t, "frame", ev.Item())
		}
	})
	// a warm-up run to the middle, then the rest counted
	require.NoError(t, e.Run(Time(items/2)*1000))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	require.NoError(t, e.Run(Forever))
	runtime.ReadMemStats(&after)
	require.Equal(t, uint64(items), got)
	require.Equal(t, uint64(items+1), seen)
	require.Equal(t, uint64(1), noted)
	require.Equal(t, uint64(items*(items+1)/2), sum, "every item read whole")
	require.Less(t, after.Mallocs-before.Mallocs, uint64(items/100), "allocations for %d transfers", items/2)
}
