package main

import (
	"regexp"
	"runtime"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// The speed line gives the run's CPU time, user and system, beside its
// wall time: CPU time the process can have used in that wall time.
func TestSpeedLineGivesTheRunsCPUTime(t *testing.T) {
	out, err := runCLI(t, "run")
	require.NoError(t, err)
	m := regexp.MustCompile(`(?m)^speed: ([0-9.]+) s wall .*; peak RSS [0-9.]+ MiB; CPU ([0-9.]+) s user, ([0-9.]+) s system$`).FindStringSubmatch(out)
	require.NotNil(t, m, "no speed line with the run's CPU time in:\n%s", out)
	f := func(s string) float64 {
		v, err := strconv.ParseFloat(s, 64)
		require.NoError(t, err)
		return v
	}
	wall, user, system := f(m[1]), f(m[2]), f(m[3])
	require.Greater(t, user+system, 0.0, "a run that simulates 190 us uses CPU time")
	// each figure is rounded to 10 ms
	require.LessOrEqual(t, user+system, wall*float64(runtime.NumCPU())+0.02,
		"more CPU time than the machine has in the run's wall time")
}

func TestCPUTimeSince(t *testing.T) {
	a := cpuTime{user: 5e9, system: 2e9}
	b := cpuTime{user: 7e9, system: 2.5e9}
	require.Equal(t, cpuTime{user: 2e9, system: 0.5e9}, b.since(a))
}
