package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// exitProcess ends the process; a test stands in for it.
var exitProcess = os.Exit

// interruptContext returns a context that the first interrupt (SIGINT
// or SIGTERM) cancels, for the run to end early with what it has. A
// second one ends the process at once, saying so on w, with the status a
// shell gives a process the signal killed: 128 and the signal's number
// (130 for SIGINT). The exit is explicit rather than the signal's own
// handling restored, since a process a shell started in the background
// begins with SIGINT ignored. stop stops listening for the signals.
func interruptContext(parent context.Context, w io.Writer) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancel(parent)
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	stopped := make(chan struct{})
	go func() {
		select {
		case <-signals:
			cancel()
		case <-stopped:
			return
		}
		select {
		case sig := <-signals:
			fmt.Fprintf(w, "fabricmodel: a second signal (%v): ending at once, without the results\n", sig)
			status := 128 + 2
			if s, ok := sig.(syscall.Signal); ok {
				status = 128 + int(s)
			}
			exitProcess(status)
		case <-stopped:
		}
	}()
	return ctx, func() {
		signal.Stop(signals)
		close(stopped)
		cancel()
	}
}
