package rtlmodel

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The recorder writes the same trace for two devices in partitions of
// their own as for the two run edge by edge in one partition, where a
// TraceSink sees the transfers in the order the partitions ran; its
// filter keeps only what it selects.
func TestTraceRecorderOrdersByTime(t *testing.T) {
	const crossLatency = 40
	run := func(parts bool, keep func(*TransferEvent) bool) (recorded, sunk string) {
		e, _ := twoDevices(t, Options{Seed: 3}, parts, 30*Nanosecond, crossLatency)
		rec := NewTraceRecorder(keep)
		rec.Attach(e)
		var sb bytes.Buffer
		sink := NewTraceSink(&sb)
		sink.Attach(e)
		require.NoError(t, e.Run(Forever))
		require.NoError(t, sink.Flush())
		var b bytes.Buffer
		n, err := rec.WriteTo(&b)
		require.NoError(t, err)
		require.Equal(t, int64(b.Len()), n)
		require.Equal(t, rec.Len()+1, strings.Count(b.String(), "\n"))
		return b.String(), sb.String()
	}
	one, oneSink := run(false, nil)
	two, twoSink := run(true, nil)
	require.Greater(t, strings.Count(one, "\n"), 500)
	require.Equal(t, one, two)
	require.NotEqual(t, oneSink, twoSink, "the partitions should reorder the sink's lines, or the test shows nothing")
	require.ElementsMatch(t, strings.Split(oneSink, "\n"), strings.Split(two, "\n"), "the recorder keeps every transfer the sink sees")

	across, _ := run(true, func(ev *TransferEvent) bool { return strings.Contains(ev.Link, ">dev") })
	lines := strings.Split(strings.TrimSuffix(across, "\n"), "\n")
	require.Greater(t, len(lines), 100)
	for _, l := range lines[1:] {
		require.Contains(t, l, `>dev`)
		require.NotContains(t, l, `>self"`)
	}
}

// A writer that fails ends the trace with its error, and WriteTo counts
// only the bytes the writer took.
func TestTraceRecorderReportsAFailingWriter(t *testing.T) {
	e, _ := twoDevices(t, Options{Seed: 3}, true, 30*Nanosecond, 40)
	rec := NewTraceRecorder(nil)
	rec.Attach(e)
	require.NoError(t, e.Run(Forever))
	w := &shortWriter{room: 1000}
	n, err := rec.WriteTo(w)
	require.ErrorIs(t, err, errFull)
	require.Equal(t, int64(1000), n)
}

var errFull = errors.New("full")

// shortWriter takes room bytes, then fails.
type shortWriter struct{ room int }

func (w *shortWriter) Write(b []byte) (int, error) {
	if len(b) > w.room {
		n := w.room
		w.room = 0
		return n, errFull
	}
	w.room -= len(b)
	return len(b), nil
}

// Written step by step between runs of the engine, the trace is the one
// written whole at the end, and the recorder holds only what came since
// the last write; a write past a time transfers still come at is
// reported, and those transfers are written all the same.
func TestTraceRecorderWritesAsTheRunGoes(t *testing.T) {
	whole := func() string {
		e, _ := twoDevices(t, Options{Seed: 3}, true, 30*Nanosecond, 40)
		rec := NewTraceRecorder(nil)
		rec.Attach(e)
		require.NoError(t, e.Run(Forever))
		var b bytes.Buffer
		_, err := rec.WriteTo(&b)
		require.NoError(t, err)
		return b.String()
	}()
	stepped := func(ahead Time) (string, int, error) {
		e, _ := twoDevices(t, Options{Seed: 3}, true, 30*Nanosecond, 40)
		rec := NewTraceRecorder(nil)
		rec.Attach(e)
		var b bytes.Buffer
		var total int64
		most := 0
		for until := 20 * Nanosecond; !e.Idle(); until += 20 * Nanosecond {
			require.NoError(t, e.Run(until))
			n, err := rec.WriteBefore(&b, e.TraceComplete()+ahead)
			require.NoError(t, err)
			total += n
			most = max(most, rec.Pending())
		}
		n, err := rec.WriteTo(&b)
		total += n
		require.Equal(t, int64(b.Len()), total)
		require.Equal(t, rec.Len()+1, strings.Count(b.String(), "\n"), "every transfer kept is written once, late or not")
		return b.String(), most, err
	}
	got, most, err := stepped(0)
	require.NoError(t, err)
	require.Equal(t, whole, got)
	require.Less(t, most, strings.Count(whole, "\n")/10, "the recorder should hold a step's transfers, not the run's")

	_, _, err = stepped(100 * Nanosecond)
	require.ErrorContains(t, err, "came after the trace was written up to")
}

// TraceComplete allows for the longest delay of a link traced as a
// hosted stage, whichever of DelayArrivals and TraceDelayAs comes first,
// and for nothing else.
func TestTraceCompleteAllowsForHostedStages(t *testing.T) {
	for _, order := range []string{"delay first", "stage first", "delay only"} {
		e := NewEngine(Options{})
		tx, err := e.AddDomain("tx", 800, 0)
		require.NoError(t, err)
		rx, err := e.AddDomain("rx", 1000, 0)
		require.NoError(t, err)
		// busy past the run's end, so that the run ends at its time
		busy := fn(func(ed Edge) Wake { return Wake(ed.Cycle + 1) })
		sh, err := e.Add(tx, "sender", busy)
		require.NoError(t, err)
		rh, err := e.Add(rx, "receiver", busy)
		require.NoError(t, err)
		short, err := NewLink[int]("short", sh, rh, LinkConfig{Latency: 1, Width: 1})
		require.NoError(t, err)
		long, err := NewLink[int]("long", sh, rh, LinkConfig{Latency: 1, Width: 1})
		require.NoError(t, err)
		short.DelayArrivals(2)
		short.TraceDelayAs("stage")
		switch order {
		case "delay first":
			long.DelayArrivals(5)
			long.TraceDelayAs("stage")
		case "stage first":
			long.TraceDelayAs("stage")
			long.DelayArrivals(5)
		case "delay only":
			long.DelayArrivals(5)
		}
		require.NoError(t, e.Run(100*Nanosecond))
		want := 100*Nanosecond - 5000
		if order == "delay only" {
			want = 100*Nanosecond - 2000
		}
		require.Equal(t, want, e.TraceComplete(), order)
	}
}
