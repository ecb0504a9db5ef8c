package main

import (
	"runtime"
	"syscall"
	"time"
)

// cpuTime is CPU time the process has used, in user mode and in the
// kernel on its behalf (system: page faults, system calls).
type cpuTime struct {
	user, system time.Duration
}

// processUsage reads the process's resource usage: its CPU time so far
// and its peak resident set (bytes); ok is false where the system does
// not tell.
func processUsage() (cpu cpuTime, peakRSS uint64, ok bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return cpuTime{}, 0, false
	}
	cpu = cpuTime{user: time.Duration(ru.Utime.Nano()), system: time.Duration(ru.Stime.Nano())}
	peakRSS = uint64(ru.Maxrss)
	if runtime.GOOS != "darwin" {
		peakRSS *= 1024 // Linux and the BSDs give KiB, macOS bytes
	}
	return cpu, peakRSS, true
}

// since is the CPU time used from start to t.
func (t cpuTime) since(start cpuTime) cpuTime {
	return cpuTime{user: t.user - start.user, system: t.system - start.system}
}
