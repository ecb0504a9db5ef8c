package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// An interrupt ends a run early with what it has: the results
// table and the outputs of the run so far, the whole trace up to then,
// and an error saying where it stopped. It runs in a process of its own,
// which the test interrupts once the run has written its first step's
// trace.
func TestRunInterruptedKeepsWhatRan(t *testing.T) {
	if dir := os.Getenv("FABRICMODEL_INTERRUPT_TEST"); dir != "" {
		out, err := runCLI(t, "run", "--step-us", "1", "--json", filepath.Join(dir, "r.json"),
			"--trace", filepath.Join(dir, "t.jsonl"), "--trace-flows", "0-31")
		os.Stdout.WriteString(out)
		require.Error(t, err)
		os.Stdout.WriteString("\nerror: " + err.Error() + "\n")
		return
	}
	dir := t.TempDir()
	trace := filepath.Join(dir, "t.jsonl")
	cmd := exec.Command(os.Args[0], "-test.run=^TestRunInterruptedKeepsWhatRan$", "-test.v")
	cmd.Env = append(os.Environ(), "FABRICMODEL_INTERRUPT_TEST="+dir)
	out, err := os.Create(filepath.Join(dir, "out"))
	require.NoError(t, err)
	cmd.Stdout, cmd.Stderr = out, out
	require.NoError(t, cmd.Start())
	const header = len(`{"schema":"fabricmodel.trace","version":1}` + "\n")
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(5 * time.Millisecond) {
		if st, err := os.Stat(trace); err == nil && st.Size() > int64(header) {
			break
		}
		require.True(t, time.Now().Before(deadline), "the run wrote no trace")
	}
	require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
	waitErr := cmd.Wait()
	log, err := os.ReadFile(filepath.Join(dir, "out"))
	require.NoError(t, err)
	require.NoError(t, waitErr, "%s", log)
	require.Contains(t, string(log), "--- PASS: TestRunInterruptedKeepsWhatRan", "%s", log)
	require.Regexp(t, `error: interrupted at \S+ simulated with \d+ of 32 flows complete`, string(log))
	require.Contains(t, string(log), "flows completed")
	require.Contains(t, string(log), "speed: ")

	var res struct {
		Flows     int     `json:"flows"`
		Completed int     `json:"completed"`
		SimTimeNS float64 `json:"sim_time_ns"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "r.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &res))
	require.Equal(t, 32, res.Flows)
	require.Less(t, res.Completed, 32, "the run was not interrupted before its end")
	require.Positive(t, res.SimTimeNS)

	// every line of the trace is whole, and it reaches the stop's time
	f, err := os.Open(trace)
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	lines, last := 0, 0.0
	for sc.Scan() {
		var rec map[string]any
		require.NoError(t, json.Unmarshal(sc.Bytes(), &rec), "trace line %d", lines+1)
		if ps, ok := rec["t"].(float64); ok {
			last = ps
		}
		lines++
	}
	require.NoError(t, sc.Err())
	require.Greater(t, lines, 1)
	require.Greater(t, last/1e3, res.SimTimeNS-1000, "the trace stops more than a step before the run")
}
