package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/fabric"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// errModel stands for an error of the model's that ends a run and is
// not a stall (a link delivering sooner than its lookahead, say).
var errModel = errors.New("a model error")

// failAt makes the run command's runs end with errModel once they have
// run up to until.
func failAt(t *testing.T, until rtlmodel.Time) {
	t.Helper()
	complete := completeRun
	t.Cleanup(func() { completeRun = complete })
	completeRun = func(r *fabric.Run, ctx context.Context, step, _ rtlmodel.Time, progress func(int)) error {
		if err := complete(r, ctx, step, until, progress); err != nil && !errors.As(err, new(*fabric.FlowsFailedError)) {
			return err
		}
		return errModel
	}
}

// A run that an error of the model's ends (not a flow's failure, not an
// interrupt or the time limit) returns that error, writes no results,
// and leaves the trace of the chosen flows up to the error: whole lines,
// in time order, each one the full run's trace holds too. When writing
// the trace fails as well, the command returns both errors.
func TestRunEndedByAModelErrorKeepsItsTrace(t *testing.T) {
	dir := t.TempDir()
	full := filepath.Join(dir, "full.jsonl")
	_, err := runCLI(t, "run", "--trace", full, "--trace-flows", "0-3")
	require.NoError(t, err)
	want, err := os.ReadFile(full)
	require.NoError(t, err)
	all := map[string]bool{}
	var before []string // the full trace's hops sent in the first 39 us
	for _, l := range strings.Split(strings.TrimSuffix(string(want), "\n"), "\n")[1:] {
		all[l] = true
		if sentAt(t, l) < uint64(39*rtlmodel.Microsecond) {
			before = append(before, l)
		}
	}

	failAt(t, 40*rtlmodel.Microsecond)
	cut := filepath.Join(dir, "cut.jsonl")
	js := filepath.Join(dir, "r.json")
	out, err := runCLI(t, "run", "--trace", cut, "--trace-flows", "0-3", "--json", js)
	require.ErrorIs(t, err, errModel)
	require.NotContains(t, out, "speed:", "the run printed its results")
	_, statErr := os.Stat(js)
	require.True(t, os.IsNotExist(statErr), "the run wrote its JSON results")
	got, err := os.ReadFile(cut)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSuffix(string(got), "\n"), "\n")
	require.Equal(t, `{"schema":"fabricmodel.trace","version":1}`, lines[0])
	require.Greater(t, len(lines), 1000, "the hops of four flows' first 40 us")
	require.Less(t, len(got), len(want), "the trace runs past the error")
	last := uint64(0)
	for i, l := range lines[1:] {
		require.True(t, all[l], "line %d is not in the full run's trace: %s", i+2, l)
		at := sentAt(t, l)
		require.GreaterOrEqual(t, at, last, "line %d out of time order", i+2)
		require.LessOrEqual(t, at, uint64(45*rtlmodel.Microsecond), "line %d long after the error", i+2)
		last = at
	}
	require.Equal(t, before, lines[1:1+len(before)], "the trace lacks hops sent before the error")

	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full to make the trace's writes fail")
	}
	_, err = runCLI(t, "run", "--trace", "/dev/full", "--trace-flows", "0-3")
	require.ErrorIs(t, err, errModel)
	require.ErrorContains(t, err, "--trace /dev/full")
}

// sentAt returns the time a trace line's transfer was sent.
func sentAt(t *testing.T, line string) uint64 {
	var rec struct {
		T uint64 `json:"t"`
	}
	require.NoError(t, json.Unmarshal([]byte(line), &rec), line)
	return rec.T
}

// A run that stalls (the fabric goes quiet, or the watchdog sees no
// progress) prints and writes its results up to the stall, and returns
// the stall's error: they are what shows what stalled. Other errors of
// the model's write none (TestRunEndedByAModelErrorKeepsItsTrace).
func TestRunThatStallsKeepsItsResults(t *testing.T) {
	for _, stall := range []error{
		&fabric.QuietError{At: 40 * rtlmodel.Microsecond, Done: 3, Flows: 32},
		&rtlmodel.DeadlockError{Time: 40 * rtlmodel.Microsecond, Why: "no progress for 5 cycles"},
	} {
		complete := completeRun
		completeRun = func(r *fabric.Run, ctx context.Context, step, _ rtlmodel.Time, progress func(int)) error {
			if err := complete(r, ctx, step, 40*rtlmodel.Microsecond, progress); err != nil && !errors.As(err, new(*fabric.FlowsFailedError)) {
				return err
			}
			return stall
		}
		js := filepath.Join(t.TempDir(), "r.json")
		out, err := runCLI(t, "run", "--json", js)
		completeRun = complete
		require.ErrorIs(t, err, stall)
		require.ErrorContains(t, err, "the results and outputs are those of the run up to then")
		require.Contains(t, out, "speed:", "the run printed its results")
		b, err := os.ReadFile(js)
		require.NoError(t, err, "the run wrote no JSON results")
		var res fabric.Results
		require.NoError(t, json.Unmarshal(b, &res))
		require.Equal(t, 32, res.Flows)
		require.InDelta(t, 40_000, res.SimTimeNS, 10_000)
	}
}
