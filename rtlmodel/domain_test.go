package rtlmodel

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Three domains (1.25 GHz, 1.6 GHz and a slow management clock with a
// phase offset): edges at equal times run in domain registration order.
func TestEdgesOfSeveralDomainsAreOrdered(t *testing.T) {
	for _, tick := range []bool{false, true} {
		e := NewEngine(Options{AlwaysTick: tick})
		fast, err := e.AddDomain("core", 800, 0)
		require.NoError(t, err)
		faster, err := e.AddDomain("mac", 625, 0)
		require.NoError(t, err)
		mgmt, err := e.AddDomain("mgmt", 10000, 5000)
		require.NoError(t, err)
		var log []string
		add := func(d *Domain, name string) {
			_, err := e.Add(d, name, fn(func(ed Edge) Wake {
				require.Equal(t, d.EdgeTime(ed.Cycle), ed.Time)
				log = append(log, name+"@"+ed.Time.String())
				if ed.Time < 20000 {
					return ed.Next()
				}
				return Never
			}))
			require.NoError(t, err)
		}
		add(mgmt, "m")
		add(faster, "f")
		add(fast, "c")
		require.NoError(t, e.Run(Forever))
		// core and mac meet at 0 and 20 ns, mac and mgmt at 5 and 15 ns.
		all := strings.Join(log, " ")
		require.Equal(t, []string{"c@0ps", "f@0ps", "f@625ps", "c@800ps"}, log[:4])
		require.Contains(t, all, "c@20ns f@20ns")
		require.Contains(t, all, "f@5ns m@5ns")
		require.Contains(t, all, "f@15ns m@15ns")
		require.True(t, strings.HasSuffix(all, "m@25ns"))
	}
	_, err := NewEngine(Options{}).AddDomain("zero", 0, 0)
	require.ErrorContains(t, err, "period must be at least 1 ps")
}

func TestTraceSinkWritesVersionedJSONLines(t *testing.T) {
	e, ds := newTestEngine(t, Options{}, 1000)
	var l *Link[string]
	a, _ := e.Add(ds[0], "top/a", fn(func(ed Edge) Wake {
		if ed.Cycle < 2 {
			l.Send("x\"y")
			return ed.Next()
		}
		return Never
	}))
	b, _ := e.Add(ds[0], "top/b", fn(func(Edge) Wake {
		for {
			if _, ok := l.Recv(); !ok {
				return Never
			}
		}
	}))
	l, _ = NewLink[string]("top/a>b", a, b, LinkConfig{Latency: 3, Width: 1})
	var buf bytes.Buffer
	sink := NewTraceSink(&buf)
	sink.Attach(e)
	require.NoError(t, e.Run(Forever))
	require.NoError(t, sink.Flush())
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	require.Len(t, lines, 3)
	require.JSONEq(t, `{"schema":"fabricmodel.trace","version":1}`, lines[0])
	var rec map[string]any
	require.NoError(t, json.Unmarshal([]byte(lines[2]), &rec))
	require.Equal(t, map[string]any{"t": 1000.0, "dom": "a", "cyc": 1.0, "link": "top/a>b",
		"from": "top/a", "to": "top/b", "arr": 4000.0, "item": "x\"y"}, rec)
}

func TestSendAtDeliversAtTheFirstEdgeInOrder(t *testing.T) {
	e, ds := newTestEngine(t, Options{}, 1000, 300)
	var l *Link[int]
	got := map[int]Time{}
	tx, _ := e.Add(ds[0], "tx", fn(func(ed Edge) Wake {
		switch ed.Cycle {
		case 1:
			l.SendAt(1, 5_050) // rounds up to the rx edge at 5100
		case 2:
			l.SendAt(2, 2_000) // earlier than item 1: delivered after it
		case 3:
			l.SendAt(3, 100) // earlier than the fixed latency allows
			return Never
		}
		return ed.Next()
	}))
	rx, _ := e.Add(ds[1], "rx", fn(func(ed Edge) Wake {
		for {
			v, ok := l.Recv()
			if !ok {
				return Never
			}
			got[v] = ed.Time
		}
	}))
	l, _ = NewLink[int]("l", tx, rx, LinkConfig{Latency: 2, Width: 1})
	require.NoError(t, e.Run(Forever))
	require.Equal(t, map[int]Time{1: 5100, 2: 5100, 3: 5100}, got)
}

func TestByteCreditedLinkHoldsBytesNotItems(t *testing.T) {
	e, ds := newTestEngine(t, Options{}, 1000)
	var l *Link[int]
	sent := 0
	tx, _ := e.Add(ds[0], "tx", fn(func(ed Edge) Wake {
		for sent < 10 && l.Fits(4000) {
			l.Send(4000)
			sent++
			break
		}
		if sent < 10 {
			return ed.Next()
		}
		return Never
	}))
	var got []Time
	rx, _ := e.Add(ds[0], "rx", fn(func(ed Edge) Wake {
		if _, ok := l.Recv(); ok {
			got = append(got, ed.Time)
		}
		if l.Pending() > 0 {
			return ed.Next()
		}
		return Never
	}))
	size := func(v int) int { return v }
	cfg := LinkConfig{Latency: 2, Width: 1, CreditLatency: 1, WidthBytes: 40, MaxItemBytes: 9000, Credits: 9119}
	_, err := NewByteLink[int]("short", tx, rx, cfg, size)
	require.ErrorContains(t, err, "credit pool of 9119 bytes is too small")
	cfg.Credits = 9120
	l, err = NewByteLink[int]("l", tx, rx, cfg, size)
	require.NoError(t, err)
	require.NoError(t, e.Run(Forever))
	require.Len(t, got, 10)
	// two 4000-byte items fit in 9120 bytes of credit; the third waits for
	// the first one's credit (3 cycles of round trip)
	require.Equal(t, Time(2000), got[0])
	require.Equal(t, Time(3000), got[1])
	require.Equal(t, Time(5000), got[2])
}
