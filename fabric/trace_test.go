package fabric

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// traceRun runs the default scenario with 256 KB flows in mode, tracing
// flows ids, and returns the trace and the results' JSON.
func traceRun(t *testing.T, mode EngineMode, ids []int) (trace, results string) {
	t.Helper()
	trace, results, err := traceRunStepped(t, mode, ids, 10*rtlmodel.Microsecond, nil)
	require.NoError(t, err)
	return trace, results
}

// traceRunStepped is traceRun in steps of step, writing the trace after
// each step up to the time upTo gives (none when nil); it returns
// WriteTo's error.
func traceRunStepped(t *testing.T, mode EngineMode, ids []int, step rtlmodel.Time, upTo func(*Run) rtlmodel.Time) (trace, results string, err error) {
	t.Helper()
	s, err := DefaultScenario()
	require.NoError(t, err)
	s.Workload.Bytes = 256 << 10
	r, err := NewRunMode(s, mode)
	require.NoError(t, err)
	var rec *rtlmodel.TraceRecorder
	if ids != nil {
		rec, err = r.TraceFlows(ids)
		require.NoError(t, err)
	}
	var b bytes.Buffer
	var progress func(int)
	if upTo != nil {
		progress = func(int) {
			_, err := rec.WriteBefore(&b, upTo(r))
			require.NoError(t, err)
		}
	}
	require.NoError(t, r.Complete(context.Background(), step, 2*rtlmodel.Millisecond, progress))
	require.Equal(t, len(r.Flows), r.Done())
	var res bytes.Buffer
	require.NoError(t, json.NewEncoder(&res).Encode(r.Results()))
	if rec == nil {
		return "", res.String(), nil
	}
	_, err = rec.WriteTo(&b)
	require.Equal(t, rec.Len()+1, strings.Count(b.String(), "\n"))
	return b.String(), res.String(), err
}

// A flow trace holds every hop of the chosen flows' frames and nothing
// else, in time order, the hosted pipes' hand-offs to their traffic
// managers included; it is the same, byte for byte, for the partitioned
// run, the lockstep run and a run in shuffled evaluation order (the
// packets' IDs are their NICs' own counts), and tracing changes no result.
func TestTraceFlowsFollowsTheChosenFlows(t *testing.T) {
	ids := []int{0, 5}
	trace, withTrace := traceRun(t, EngineMode{}, ids)
	_, plain := traceRun(t, EngineMode{}, nil)
	require.Equal(t, plain, withTrace, "tracing changed the results")

	s, err := DefaultScenario()
	require.NoError(t, err)
	s.Workload.Bytes = 256 << 10
	r, err := NewRun(s)
	require.NoError(t, err)
	ends := map[string]bool{}
	for _, id := range ids {
		f := r.Flows[id]
		ends[fmt.Sprintf("%d>%d", f.Src, f.Dst)] = true
		ends[fmt.Sprintf("%d>%d", f.Dst, f.Src)] = true
	}

	type line struct {
		T    uint64 `json:"t"`
		Link string `json:"link"`
		Arr  uint64 `json:"arr"`
		Item string `json:"item"`
	}
	sc := bufio.NewScanner(strings.NewReader(trace))
	require.True(t, sc.Scan())
	require.JSONEq(t, `{"schema":"fabricmodel.trace","version":1}`, sc.Text())
	var last uint64
	links := map[string]bool{}
	dirs := map[string]int{}
	n := 0
	for sc.Scan() {
		var l line
		require.NoError(t, json.Unmarshal(sc.Bytes(), &l), sc.Text())
		require.GreaterOrEqual(t, l.T, last, "out of time order: %s", sc.Text())
		require.Greater(t, l.Arr, l.T, sc.Text())
		last = l.T
		fields := strings.Fields(l.Item)
		require.GreaterOrEqual(t, len(fields), 2, sc.Text())
		require.True(t, ends[fields[1]], "a frame of no chosen flow: %s", sc.Text())
		dirs[fields[1]]++
		links[linkKind(l.Link)] = true
		n++
	}
	// 256 KB flows of 4 KB packets: 64 data frames a flow, those of flow
	// 0 (across the spines) each over eleven links (the NIC's to its PHY,
	// then into each of three switches, through its pipe to its traffic
	// manager and on to a PHY, and the last wire), and their ACKs back
	require.Greater(t, n, 64*11)
	require.Len(t, dirs, 4, "data and ACKs of both flows: %v", dirs)
	for _, k := range []string{"nic/tx", "leaf/port/rx", "leaf/pipe>mmu", "leaf/mmu>port", "spine/port/rx",
		"spine/pipe>mmu", "spine/mmu>port", "leaf/port/wire"} {
		require.True(t, links[k], "no hop on a %s link: %v", k, links)
	}

	lockstep, _ := traceRun(t, EngineMode{Lockstep: true}, ids)
	require.Equal(t, trace, lockstep, "the lockstep run traced otherwise")
	shuffled, _ := traceRun(t, EngineMode{ShuffleSeed: 3}, ids)
	require.Equal(t, trace, shuffled, "the shuffled run traced otherwise")
}

// A flow trace written as the run goes, up to the engine's TraceComplete
// after each step, is the trace written whole at the end; written up to
// the engine's time, it misses the hosted pipes' hand-offs reported after
// the step that sent them, and says so.
func TestTraceFlowsWritesAsTheRunGoes(t *testing.T) {
	ids := []int{0, 5}
	whole, _ := traceRun(t, EngineMode{}, ids)
	stepped, _, err := traceRunStepped(t, EngineMode{}, ids, rtlmodel.Microsecond, func(r *Run) rtlmodel.Time { return r.Cluster.Engine.TraceComplete() })
	require.NoError(t, err)
	require.Equal(t, whole, stepped)
	_, _, err = traceRunStepped(t, EngineMode{}, ids, rtlmodel.Microsecond, func(r *Run) rtlmodel.Time { return r.Cluster.Engine.Now() })
	require.ErrorContains(t, err, "came after the trace was written up to")
}

// linkKind names a link without its numbers: "leaf1/port4/rx" is
// "leaf/port/rx", "spine0/pipe2>mmu" "spine/pipe>mmu".
func linkKind(name string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return -1
		}
		return r
	}, name)
}

// A flow the run lacks, or none, is an error naming what the run has.
func TestTraceFlowsRefusesFlowsTheRunLacks(t *testing.T) {
	s, err := DefaultScenario()
	require.NoError(t, err)
	r, err := NewRun(s)
	require.NoError(t, err)
	_, err = r.TraceFlows([]int{3, 32})
	require.EqualError(t, err, "fabric: trace: no flow 32 (the run has flows 0 to 31)")
	_, err = r.TraceFlows([]int{-1})
	require.EqualError(t, err, "fabric: trace: no flow -1 (the run has flows 0 to 31)")
	_, err = r.TraceFlows(nil)
	require.EqualError(t, err, "fabric: trace: no flow chosen")
}
